// @ts-check
"use strict";
/**
 * `node scripts/release-check.cjs --tag v<version> --repository <owner>/<name> [--notes FILE]`: the
 * first job of a release (.github/workflows/release.yml, docs/releasing.md), before anything is built
 * or published. The release is refused, saying what to fix, unless:
 *
 * - the tag is `v` and package.json's version, the only place the version is written;
 * - CHANGELOG.md's first release is that version, with its date (Keep a Changelog: `## [0.2.0] - 2026-11-28`);
 * - package.json's `repository.url` names the GitHub repository the release runs in: the schema's
 *   `pluginDownloadURL` points there (the plugin archives are its release's assets), and npm refuses a
 *   provenance statement for another repository.
 *
 * `--notes FILE` writes that version's changelog section, the release's notes. The version is printed,
 * and written as `version=<version>` to `$GITHUB_OUTPUT` when GitHub Actions sets it. Reads the build
 * (`npm ci` makes it) for the reading of the repository URL the plugin serves.
 */
const { appendFileSync, readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");

/** @param {string[]} argv @param {string} name */
function option(argv, name) {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
}

/**
 * The changelog's first release, `## [x.y.z] - YYYY-MM-DD`, after an optional `## [Unreleased]`, and its text.
 * @param {string} changelog
 * @returns {{ version: string; date: string | undefined; notes: string } | undefined}
 */
function firstRelease(changelog) {
  const headings = [...changelog.matchAll(/^## \[([^\]]+)\](.*)$/gm)].filter((heading) => String(heading[1]).toLowerCase() !== "unreleased");
  const heading = headings[0];
  if (heading === undefined) return undefined;
  const start = heading.index + heading[0].length;
  const next = changelog.slice(start).search(/^## /m);
  const date = /^ - (\d{4}-\d{2}-\d{2})\s*$/.exec(heading[2] ?? "")?.[1];
  return { version: String(heading[1]), date, notes: changelog.slice(start, next === -1 ? undefined : start + next).trim() };
}

function main() {
  const argv = process.argv.slice(2);
  const tag = option(argv, "--tag");
  const repository = option(argv, "--repository");
  if (tag === undefined || repository === undefined) throw new Error("usage: release-check.cjs --tag v<version> --repository <owner>/<name> [--notes FILE]");
  const manifest = /** @type {{ version: string; repository?: { url?: string } }} */ (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")));
  const { version } = manifest;
  const problems = [];
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) problems.push(`package.json's version ${JSON.stringify(version)} is not semver`);
  if (tag !== `v${version}`) problems.push(`the tag ${tag} is not v${version}, package.json's version: tag the commit whose package.json has the version to release`);

  const release = firstRelease(readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8"));
  if (release === undefined) problems.push("CHANGELOG.md has no release heading (`## [x.y.z] - YYYY-MM-DD`)");
  else if (release.version !== version) problems.push(`CHANGELOG.md's first release is ${release.version}, not ${version}: add the section of ${version} on top`);
  else if (release.date === undefined) problems.push(`CHANGELOG.md's section of ${version} has no date: write it \`## [${version}] - YYYY-MM-DD\``);

  const { gitHubRepository } = require(path.join(ROOT, "dist", "provider", "plugin", "package-schema.js"));
  /** @type {{ owner: string; name: string } | undefined} */
  const named = gitHubRepository(manifest.repository?.url);
  if (named === undefined || `${named.owner}/${named.name}`.toLowerCase() !== repository.toLowerCase()) {
    problems.push(
      `package.json's repository.url (${JSON.stringify(manifest.repository?.url)}) does not name ${repository}, where this release runs: ` +
        `the plugin's download URL and npm's provenance would point elsewhere. Set it (\`npm pkg set repository.url=git+https://github.com/${repository}.git\`) and tag again`,
    );
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));

  const notes = option(argv, "--notes");
  if (notes !== undefined && release !== undefined) writeFileSync(notes, `${release.notes}\n`);
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `version=${version}\n`);
  process.stdout.write(`${version}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`release-check: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
