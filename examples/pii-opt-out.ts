import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { PiiOptOutRequest } from "pulumi-insights";
import { optionalSecretSetting, optionalSetting } from "./settings";

/** The stack outputs of {@link piiOptOut}: progress and a digest for review, no identifier. */
export interface PiiOptOutOutputs {
  /** ENQUEUED, STARTED or FINISHED: the least advanced status of the requests (spec 3.1). */
  optOutStatus?: pulumi.Output<string>;
  /** How many distinct viewer ids the deletion covers. */
  optOutIdentifierCount?: pulumi.Output<number>;
  /** A salted digest of the id set: shows in review whether the set changed, without disclosing it. */
  optOutIdentifierDigest?: pulumi.Output<string>;
}

/** Identifiers separated by commas, spaces or newlines; `#` starts a comment that runs to the end of the line. */
export function parseIdentifierList(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line) => line.replace(/#.*/, "").split(/[\s,]+/))
    .filter((identifier) => identifier !== "");
}

/**
 * The viewer ids to forget, never written in the program: from the secret `insights:optOutViewerIds`,
 * or from the file named by `insights:optOutViewerIdsFile` (relative to the project directory). The
 * file's content becomes a secret at once, so the ids are encrypted in the state like the config value.
 */
function viewerIdsToForget(): pulumi.Output<string[]> | undefined {
  const inline = optionalSecretSetting("optOutViewerIds");
  const file = optionalSetting("optOutViewerIdsFile");
  if (inline !== undefined && file !== undefined) {
    throw new Error("set insights:optOutViewerIds or insights:optOutViewerIdsFile, not both");
  }
  if (inline !== undefined) return inline.apply(parseIdentifierList);
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`insights:optOutViewerIdsFile: cannot read ${file} (${reason})`);
  }
  return pulumi.secret(parseIdentifierList(text));
}

/**
 * A PII opt-out (spec 4.10): asks the service to delete the personal data of some viewers and waits
 * until it has (ENQUEUED, STARTED, FINISHED). The ids are kept only as secrets; the outputs carry a
 * salted digest instead. Ids submitted before are followed, not sent again; more than 100 become
 * several requests. Destroying the resource cannot withdraw a deletion: it only leaves the state.
 */
export function piiOptOut(): PiiOptOutOutputs {
  const viewerIds = viewerIdsToForget();
  if (viewerIds === undefined) return {};
  const request = new PiiOptOutRequest("forget-viewers", {
    viewerIds,
    // The service takes minutes to hours; look every 5 seconds at first, less often as time passes.
    pollIntervalSeconds: 5,
  });
  return {
    optOutStatus: request.status,
    optOutIdentifierCount: request.identifierCount,
    optOutIdentifierDigest: request.identifierDigest,
  };
}
