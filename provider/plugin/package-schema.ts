import { packageManifest } from "../client/core/version";
import schema from "./schema.json";

/** A repository on GitHub, by its owner and name. */
export interface GitHubRepository {
  owner: string;
  name: string;
}

/**
 * The GitHub repository package.json's `repository.url` names (`git+https://github.com/<owner>/<repo>.git`,
 * `https://github.com/<owner>/<repo>` or `github:<owner>/<repo>`), else undefined.
 */
export function gitHubRepository(url: string | undefined): GitHubRepository | undefined {
  const match =
    /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url ?? "") ?? /^github:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url ?? "");
  return match === null ? undefined : { owner: match[1]!, name: match[2]! };
}

/**
 * Where Pulumi downloads the plugin from: `github://api.github.com/<owner>/<repo>`, the assets of
 * that repository's release `v<version>` (docs/releasing.md "Where Pulumi finds the plugin").
 */
export function pluginDownloadUrl(repository: GitHubRepository): string {
  return `github://api.github.com/${repository.owner}/${repository.name}`;
}

/**
 * The package schema as the plugin serves it (GetSchema, docs/provider-plugins.md rule 4) and the
 * release archives it: the committed provider/plugin/schema.json, written by `npm run schema` from
 * ./schema/declaration.ts (test/plugin/schema.test.ts fails while it is not current), with what
 * package.json alone says: the `version`, and from its repository the `pluginDownloadURL` and the Go
 * SDK's import path (the module the release tags, `sdk/v<version>`).
 */
export function servedSchema(): Record<string, unknown> {
  const { version, repository } = packageManifest();
  const github = gitHubRepository(repository);
  const { name, displayName, ...rest } = schema;
  return {
    name,
    displayName,
    version,
    ...(github === undefined
      ? {}
      : {
          pluginDownloadURL: pluginDownloadUrl(github),
          language: { go: { importBasePath: `github.com/${github.owner}/${github.name}/sdk/go/${name}` } },
        }),
    ...rest,
  };
}

/** {@link servedSchema} as the JSON text GetSchema answers. */
export const PACKAGE_SCHEMA_TEXT = JSON.stringify(servedSchema());
