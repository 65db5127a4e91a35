import { execFileSync } from "node:child_process";
import path from "node:path";

/** The repository, whose package is packed. */
const ROOT = path.join(__dirname, "..", "..");

/**
 * The package as a user receives it: `npm pack` of the repository into `folder` (the build is
 * already there, `npm test` makes it, so the package's scripts are skipped); the tarball's path.
 */
export function packPackage(folder: string): string {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", folder], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  ) as { filename: string }[];
  return path.join(folder, packed!.filename);
}
