import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { decodeStruct, encodeFields, readWithStructs, writtenStruct } from "../../provider/plugin/struct-wire";

/**
 * The plugin's Struct codec (provider/plugin/struct-wire.ts) held to google-protobuf, the library
 * the engine's SDKs read and write with: the same bytes written, the same values read.
 */

/** Every kind of Value, keys out of order, texts whose lengths take two varint bytes, multi-byte UTF-8. */
const MEMBERS = {
  zeta: [1, -1.5, 0, 1e300, true, false, null, "", "é✓🙂".repeat(40), [], {}],
  alpha: { nested: { deeper: { list: [{ b: 2, a: "x".repeat(300) }] } }, "": "empty key" },
  count: 42,
  flag: false,
  none: null,
};

/** {@link MEMBERS} as google-protobuf builds a Struct. */
function protobufStruct(): Struct {
  return Struct.fromJavaScript(MEMBERS as unknown as Record<string, never>);
}

describe("the plugin's Struct codec", () => {
  it("writes the bytes google-protobuf writes, alone and inside a request", () => {
    const reference = protobufStruct();
    expect(Buffer.from(encodeFields(MEMBERS))).toEqual(Buffer.from(reference.serializeBinary()));
    const [ours, theirs] = [writtenStruct(MEMBERS), reference].map((struct) => {
      const request = new providerProto.CheckRequest();
      request.setUrn("urn:pulumi:dev::proj::insights:index:SavedFilter::a");
      request.setNews(struct);
      return Buffer.from(request.serializeBinary());
    });
    expect(ours).toEqual(theirs);
  });

  it("reads what google-protobuf writes, the other fields of a request left to google-protobuf", () => {
    const request = new providerProto.CheckRequest();
    request.setUrn("urn:pulumi:dev::proj::insights:index:SavedFilter::a");
    request.setNews(protobufStruct());
    const bytes = Buffer.from(request.serializeBinary());
    expect(decodeStruct(bytes.subarray(0, 0)).toJavaScript()).toEqual({});
    const read = readWithStructs(bytes, (data) => providerProto.CheckRequest.deserializeBinary(data), { getOlds: 2, getNews: 3 });
    expect(read.getUrn()).toBe("urn:pulumi:dev::proj::insights:index:SavedFilter::a");
    expect(read.getOlds()).toBeUndefined();
    expect(read.getNews()!.toJavaScript()).toEqual(MEMBERS);
  });

  it("reads an answer's Struct and its repeated failures, as the engine driver reads answers (engine/host.ts)", () => {
    const response = new providerProto.CheckResponse();
    response.setInputs(protobufStruct());
    response.setFailuresList(["name", "rules.and[0]"].map((property) => {
      const failure = new providerProto.CheckFailure();
      failure.setProperty(property);
      failure.setReason(`${property} is wrong`);
      return failure;
    }));
    const read = readWithStructs(Buffer.from(response.serializeBinary()), (data) => providerProto.CheckResponse.deserializeBinary(data), { getInputs: 1 });
    expect(read.getInputs()!.toJavaScript()).toEqual(MEMBERS);
    expect(read.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()])).toEqual([["name", "name is wrong"], ["rules.and[0]", "rules.and[0] is wrong"]]);
  });
});
