/**
 * The digest functions at the path README.md named in version 0.1.0
 * (`pulumi-insights/dist/provider/resources/pii-opt-out-request/digest.js`), kept for a reviewer's
 * scripts written against it; the digest lives in provider/pii/digest.ts.
 */
export {
  /** @deprecated Import `identifierSetDigest` from `pulumi-insights`; this path goes in the next release. */
  identifierSetDigest,
  /** @deprecated Compare `identifierSetDigest` of `pulumi-insights` with the stored digest; this path goes in the next release. */
  matchesIdentifierSetDigest,
} from "../../pii/digest";
