import schema from "./schema.json";

/**
 * The package schema the plugin answers GetSchema with (docs/provider-plugins.md rule 4): the
 * committed provider/plugin/schema.json, written by `npm run schema` from ./schema/declaration.ts
 * (test/plugin/schema.test.ts fails while it is not current).
 */
export const PACKAGE_SCHEMA_TEXT = JSON.stringify(schema);
