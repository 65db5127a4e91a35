import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { InsightsError } from "../client/core/errors";

/**
 * `google.protobuf.Struct` on the wire, written and read directly: google-protobuf builds a message
 * for every value of a Struct, which takes seconds for a SavedFilterSet of thousands of members on
 * each side of every call (Check, Diff, Create, Update, Read). The plugin reads the property bags of
 * its requests and writes those of its answers with this (./server.ts, ./wire.ts), and so does the
 * engine driver the tests run it with (engine/struct.ts); the bytes are those google-protobuf writes,
 * map keys in order.
 */

/** Something with a Struct's `toJavaScript`: a google-protobuf Struct, or one this module read. */
export interface StructLike {
  toJavaScript(): unknown;
}

/**
 * A Struct that holds `members` (JSON values) and writes them as encoded here at once when the
 * message holding it is serialized: the generated serializers ask a Struct for its map of fields and
 * have the map write itself.
 */
export function writtenStruct(members: Record<string, unknown>): Struct {
  const fields = encodeFields(members);
  const struct = new Struct();
  const written = {
    getLength: () => (fields.length === 0 ? 0 : 1),
    serializeBinary: (_field: number, writer: { writeSerializedMessage(bytes: Uint8Array, start: number, end: number): void }) => writer.writeSerializedMessage(fields, 0, fields.length),
  };
  Object.assign(struct, { getFieldsMap: () => written, toJavaScript: () => structuredClone(members) });
  return struct;
}


/** Bytes of a varint. */
function varintSize(value: number): number {
  let size = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) size++;
  return size;
}

/** Sizes of the objects and arrays of one encoding, so that each is measured once. */
type Sizes = Map<object, number>;

/** The size of `value` as a Value message's content. */
function valueSize(value: unknown, sizes: Sizes): number {
  if (value === null || typeof value === "boolean") return 2;
  if (typeof value === "number") return 9;
  if (typeof value === "string") {
    const length = Buffer.byteLength(value);
    return 1 + varintSize(length) + length;
  }
  const inner = Array.isArray(value) ? listSize(value, sizes) : fieldsSize(value as Record<string, unknown>, sizes);
  return 1 + varintSize(inner) + inner;
}

function listSize(items: readonly unknown[], sizes: Sizes): number {
  let size = sizes.get(items);
  if (size !== undefined) return size;
  size = 0;
  for (const item of items) {
    const inner = valueSize(item, sizes);
    size += 1 + varintSize(inner) + inner;
  }
  sizes.set(items, size);
  return size;
}

function entrySize(key: string, value: unknown, sizes: Sizes): number {
  const keyLength = Buffer.byteLength(key);
  const inner = valueSize(value, sizes);
  return 1 + varintSize(keyLength) + keyLength + 1 + varintSize(inner) + inner;
}

function fieldsSize(members: Record<string, unknown>, sizes: Sizes): number {
  let size = sizes.get(members);
  if (size !== undefined) return size;
  size = 0;
  for (const [key, member] of Object.entries(members)) {
    const entry = entrySize(key, member, sizes);
    size += 1 + varintSize(entry) + entry;
  }
  sizes.set(members, size);
  return size;
}

/** Writes protobuf into a buffer of a size known beforehand. */
class Writer {
  readonly bytes: Buffer;
  private at = 0;

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  byte(value: number): void {
    this.bytes[this.at++] = value;
  }

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  text(tag: number, value: string): void {
    this.byte(tag);
    this.varint(Buffer.byteLength(value));
    this.at += this.bytes.write(value, this.at, "utf8");
  }

  double(value: number): void {
    this.at = this.bytes.writeDoubleLE(value, this.at);
  }
}

function writeValue(writer: Writer, value: unknown, sizes: Sizes): void {
  if (value === null) return void (writer.byte(0x08), writer.byte(0));
  if (typeof value === "boolean") return void (writer.byte(0x20), writer.byte(value ? 1 : 0));
  if (typeof value === "number") return void (writer.byte(0x11), writer.double(value));
  if (typeof value === "string") return writer.text(0x1a, value);
  if (Array.isArray(value)) {
    writer.byte(0x32);
    writer.varint(listSize(value, sizes));
    for (const item of value) {
      writer.byte(0x0a);
      writer.varint(valueSize(item, sizes));
      writeValue(writer, item, sizes);
    }
    return;
  }
  writer.byte(0x2a);
  writer.varint(fieldsSize(value as Record<string, unknown>, sizes));
  writeFields(writer, value as Record<string, unknown>, sizes);
}

function writeFields(writer: Writer, members: Record<string, unknown>, sizes: Sizes): void {
  // In the order of the keys, as google-protobuf writes a map.
  for (const key of Object.keys(members).sort()) {
    const member = members[key];
    writer.byte(0x0a);
    writer.varint(entrySize(key, member, sizes));
    writer.text(0x0a, key);
    writer.byte(0x12);
    writer.varint(valueSize(member, sizes));
    writeValue(writer, member, sizes);
  }
}

/** The fields of a Struct holding `members` (JSON values), as protobuf bytes. */
export function encodeFields(members: Record<string, unknown>): Uint8Array {
  const sizes: Sizes = new Map();
  const writer = new Writer(fieldsSize(members, sizes));
  writeFields(writer, members, sizes);
  return writer.bytes;
}

/** Reads protobuf from a buffer. */
class Reader {
  at: number;

  constructor(
    readonly bytes: Buffer,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.at = start;
  }

  get done(): boolean {
    return this.at >= this.end;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  /** A length-delimited field: its range. */
  delimited(): [number, number] {
    const length = this.varint();
    const start = this.at;
    this.at += length;
    return [start, this.at];
  }

  text(): string {
    const [start, end] = this.delimited();
    return this.bytes.toString("utf8", start, end);
  }

  /** Skips a field of `wireType`. */
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.at += 8;
    else if (wireType === 2) this.delimited();
    else if (wireType === 5) this.at += 4;
    else throw new InsightsError(`google.protobuf.Struct codec: protobuf wire type ${wireType} not read`);
  }
}

function readValue(bytes: Buffer, start: number, end: number): unknown {
  const reader = new Reader(bytes, start, end);
  let value: unknown = null;
  while (!reader.done) {
    const tag = reader.varint();
    switch (tag) {
      case 0x08: reader.varint(); value = null; break;
      case 0x11: value = bytes.readDoubleLE(reader.at); reader.at += 8; break;
      case 0x1a: value = reader.text(); break;
      case 0x20: value = reader.varint() !== 0; break;
      case 0x2a: value = readFields(bytes, ...reader.delimited()); break;
      case 0x32: value = readList(bytes, ...reader.delimited()); break;
      default: reader.skip(tag & 7);
    }
  }
  return value;
}

function readList(bytes: Buffer, start: number, end: number): unknown[] {
  const reader = new Reader(bytes, start, end);
  const items: unknown[] = [];
  while (!reader.done) {
    const tag = reader.varint();
    if (tag === 0x0a) items.push(readValue(bytes, ...reader.delimited()));
    else reader.skip(tag & 7);
  }
  return items;
}

function readFields(bytes: Buffer, start: number, end: number): Record<string, unknown> {
  const reader = new Reader(bytes, start, end);
  const members: Record<string, unknown> = {};
  while (!reader.done) {
    const tag = reader.varint();
    if (tag !== 0x0a) {
      reader.skip(tag & 7);
      continue;
    }
    const entry = new Reader(bytes, ...reader.delimited());
    let key = "";
    let member: unknown = null;
    while (!entry.done) {
      const inner = entry.varint();
      if (inner === 0x0a) key = entry.text();
      else if (inner === 0x12) member = readValue(bytes, ...entry.delimited());
      else entry.skip(inner & 7);
    }
    members[key] = member;
  }
  return members;
}

/** The Struct encoded in `bytes` from `start` to `end`, read as JSON. */
export function decodeStruct(bytes: Buffer, start = 0, end = bytes.length): StructLike {
  const members = readFields(bytes, start, end);
  return { toJavaScript: () => members };
}

/**
 * A message (a request the plugin reads, an answer the engine driver reads: engine/host.ts) read by
 * `deserialize` (a generated message's `deserializeBinary`) from `bytes`, except its
 * Struct fields (`structs`: getter name to field number), which are read by {@link decodeStruct} and
 * answered by those getters: the message's other fields are few and small.
 */
export function readWithStructs<Message extends object>(bytes: Buffer, deserialize: (bytes: Buffer) => Message, structs: Readonly<Record<string, number>>): Message {
  const numbers = new Set(Object.values(structs));
  const kept: Buffer[] = [];
  const found = new Map<number, [number, number]>();
  const reader = new Reader(bytes);
  while (!reader.done) {
    const start = reader.at;
    const tag = reader.varint();
    const [field, wireType] = [Math.floor(tag / 8), tag & 7];
    if (wireType === 2 && numbers.has(field)) {
      found.set(field, reader.delimited());
      continue;
    }
    reader.skip(wireType);
    kept.push(bytes.subarray(start, reader.at));
  }
  const message = deserialize(Buffer.concat(kept));
  for (const [getter, field] of Object.entries(structs)) {
    const range = found.get(field);
    Object.assign(message, { [getter]: () => (range === undefined ? undefined : decodeStruct(bytes, ...range)) });
  }
  return message;
}
