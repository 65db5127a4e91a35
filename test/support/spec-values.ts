/**
 * Values written out from the spec, so that tests compare what the emulator and the client answer
 * with the contract rather than with the constants the code itself serves (provider/schema/names.ts).
 */

/** The filter field names of spec 2.7 (the values of the `fields` lookup, spec 4.8), in the spec's order. */
export const SPEC_FILTER_FIELDS = [
  "ASN", "Asset Name", "Browser Name", "Browser Version", "CDN", "City", "Client ID", "Continent", "Country",
  "Customer", "DMA", "Device Hardware Type", "Device Manufacturer", "Device Marketing Name", "Device Model",
  "Device Name", "Device Operating System", "Device Operating System Family", "Device Operating System Version",
  "ISP", "Content Category", "Player Framework Name", "Player Framework Version", "Player Name", "Postal Code",
  "Resource", "State", "Tag",
];
