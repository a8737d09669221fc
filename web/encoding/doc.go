// Package encoding is the WHATWG Encoding standard's TextEncoder and
// TextDecoder and the HTML standard's atob and btoa, natively in Go.
//
// What it owns: the globals TextEncoder, TextDecoder, atob, btoa, and the
// Go API other spec packages use — Decoder (NewDecoder, NewUTF8Decoder:
// the streaming decoder that TextDecoder and TextDecoderStream share;
// Decode(b, stream) keeps an incomplete sequence between stream:true
// calls, strips the BOM once per stream, replaces or, when fatal, fails
// with ErrInvalid), Label (the standard's "get an encoding"), EncodeUTF8
// (TextEncoder.encode of a JS string) and DecodeBase64 (forgiving-base64,
// for data: URLs).
//
// What is native: UTF-8 (the standard's decoder, one U+FFFD per maximal
// ill-formed subsequence, a utf8.Valid fast path), UTF-16LE/BE, the
// single-byte encodings (x/text's tables, fixed where the standard maps
// 0x80–0x9F to C1 controls), TextEncoder (reading goja's UTF-16 in place
// through webidl.StringData), base64. The multi-byte legacy encodings
// (Shift_JIS, EUC-JP, ISO-2022-JP, GBK/gb18030, Big5, EUC-KR) decode through
// golang.org/x/text/encoding (labels through its htmlindex).
//
// Known deviations: fatal mode for the multi-byte legacy encodings treats
// a U+FFFD in x/text's output as an error (only a gb18030 four-byte
// sequence can decode to U+FFFD legitimately); how many bytes a malformed
// multi-byte legacy sequence swallows is x/text's choice, which may differ
// from the standard's error recovery in rare cases. SharedArrayBuffer does
// not exist in goja. TextEncoderStream/TextDecoderStream live in
// web/streams.
package encoding
