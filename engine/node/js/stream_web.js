// node:stream/web — the WHATWG streams of the isolate's Web platform.
"use strict";
const g = globalThis;
for (const name of ["ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader",
  "ReadableStreamBYOBRequest", "ReadableByteStreamController", "ReadableStreamDefaultController",
  "TransformStream", "TransformStreamDefaultController", "WritableStream", "WritableStreamDefaultWriter",
  "WritableStreamDefaultController", "ByteLengthQueuingStrategy", "CountQueuingStrategy",
  "TextEncoderStream", "TextDecoderStream", "CompressionStream", "DecompressionStream"]) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => g[name] });
}
