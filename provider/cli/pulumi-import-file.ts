/**
 * The file `pulumi import --file` takes (docs/provider-plugins.md rule 10), for the filters that
 * `pulumi-insights import` declares: one `insights:index:SavedFilter` per filter, by id, named as the
 * TypeScript module names it (./resource-names.ts), so that a program in any language that uses the
 * provider plugin gets the same resources, and the CLI generates their code in that language.
 */

/**
 * The type token of a saved filter in the plugin's package schema (provider/plugin/schema.json,
 * which test/provider/import-command.test.ts holds it to). Written here rather than imported: the
 * command loads nothing of the plugin.
 */
export const SAVED_FILTER_TYPE = "insights:index:SavedFilter";

/** One resource of the file: Pulumi reads `type`, `name` (the resource's name, and the name of its code) and `id`. */
export interface PulumiImportResource {
  type: typeof SAVED_FILTER_TYPE;
  name: string;
  id: string;
}

/** A filter the module declares, as ./generate-module.ts lists them. */
export interface DeclaredFilter {
  filterId: string;
  resourceName: string;
}

/** Every character outside printable ASCII as a JSON `\u` escape: the file reads back the same, and shows nothing hidden. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[^\x20-\x7e\n]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The text of the file for `declared` (in the module's order, by id): `{"resources": [...]}`, ending
 * with a newline. Values from the service are data in it, written by `JSON.stringify` and kept
 * ASCII, so the file shows in a terminal or an editor as it is read; the names are the module's,
 * lower-case ASCII, unique in the file and the same on every run.
 */
export function pulumiImportFile(declared: readonly DeclaredFilter[]): string {
  const resources: PulumiImportResource[] = declared.map(({ filterId, resourceName }) => ({ type: SAVED_FILTER_TYPE, name: resourceName, id: filterId }));
  return `${asciiJson({ resources })}\n`;
}
