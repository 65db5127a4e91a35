import { piiOptOutRequestCore } from "../pii/pii-opt-out-request";
import { dynamicProvider } from "./dynamic-provider";

/**
 * The PiiOptOutRequest resource in the dynamic-provider host (loaded by name, host/shim.ts): its
 * core (pii/pii-opt-out-request.ts) as the host serves it; the host's lines about its calls name the
 * resource by its `resourceName` (`PiiOptOutRequest "gdpr-2026-11": ...`), never by an identifier.
 */
export const provider = dynamicProvider("PiiOptOutRequest", (properties) => (properties as { resourceName?: unknown } | undefined)?.resourceName, piiOptOutRequestCore);
