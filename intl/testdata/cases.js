// Generates golden.json: Node 20's output for every parity case.
// Run from this folder: TZ=UTC LANG=en_US.UTF-8 node cases.js
// Each case is a JS expression; its value is recorded as a string (objects
// through JSON.stringify) or as "!ErrorName" when it throws.
"use strict";
const fs = require("fs");
const cases = [];
const add = (group, expr) => cases.push({ group, expr });
const J = JSON.stringify;

const locales = ["en-US", "en-GB", "de", "fr", "es", "it", "pt-BR", "ru", "pl", "tr", "ar", "ar-EG", "he", "hi", "hi-IN-u-nu-deva", "bn", "ja", "zh", "zh-TW", "ko", "th", "nl", "sv", "de-CH", "fr-CA", "es-MX", "id", "vi", "uk", "cs", "fa", "en-IN"];

// ---- NumberFormat ----
const nums = [0, -0, 1, -1, 0.5, 1234.5, -1234.567, 1234567.891, 0.000123, 1e21, 123456789012, NaN, Infinity, -Infinity];
const nfOpts = [
  {}, { style: "percent" }, { style: "currency", currency: "USD" }, { style: "currency", currency: "EUR", currencyDisplay: "name" },
  { style: "currency", currency: "JPY", currencyDisplay: "code" }, { style: "currency", currency: "USD", currencySign: "accounting" },
  { style: "currency", currency: "EUR", currencyDisplay: "narrowSymbol" }, { notation: "compact" }, { notation: "compact", compactDisplay: "long" },
  { notation: "scientific" }, { notation: "engineering" }, { style: "unit", unit: "kilometer-per-hour" }, { style: "unit", unit: "liter", unitDisplay: "long" },
  { style: "unit", unit: "megabyte", unitDisplay: "narrow" }, { minimumFractionDigits: 2 }, { maximumSignificantDigits: 3 }, { signDisplay: "exceptZero" },
  { useGrouping: false }, { minimumIntegerDigits: 3 }, { style: "currency", currency: "USD", notation: "compact" },
];
for (const l of locales) {
  for (const o of nfOpts) {
    for (const n of [0, -1234.567, 1234567.891, 0.5]) add("NumberFormat.format", `new Intl.NumberFormat(${J(l)}, ${J(o)}).format(${Object.is(n, -0) ? "-0" : n})`);
  }
  add("NumberFormat.resolvedOptions", `JSON.stringify(new Intl.NumberFormat(${J(l)}).resolvedOptions())`);
}
for (const n of nums) for (const o of nfOpts.slice(0, 12)) add("NumberFormat.format", `new Intl.NumberFormat("en-US", ${J(o)}).format(${Object.is(n, -0) ? "-0" : n})`);
const more = [
  { roundingMode: "floor", maximumFractionDigits: 1 }, { roundingMode: "halfEven", maximumFractionDigits: 0 }, { roundingMode: "ceil", maximumSignificantDigits: 2 },
  { roundingIncrement: 5, maximumFractionDigits: 2, minimumFractionDigits: 2 }, { roundingIncrement: 25, maximumFractionDigits: 2, minimumFractionDigits: 2 },
  { roundingPriority: "lessPrecision", maximumSignificantDigits: 2, maximumFractionDigits: 2 }, { roundingPriority: "morePrecision", maximumSignificantDigits: 2, maximumFractionDigits: 2 },
  { trailingZeroDisplay: "stripIfInteger", minimumFractionDigits: 2 }, { signDisplay: "always" }, { signDisplay: "never" }, { signDisplay: "negative" },
  { useGrouping: "min2" }, { useGrouping: "always" }, { minimumSignificantDigits: 5 }, { style: "currency", currency: "USD", currencySign: "accounting", signDisplay: "always" },
  { style: "unit", unit: "percent" }, { style: "unit", unit: "celsius", unitDisplay: "long" }, { style: "unit", unit: "byte", notation: "compact", unitDisplay: "long" },
];
for (const o of more) for (const n of [1.005, -2.5, 2.5, 1234.5678, -0.001, 10000, 0]) add("NumberFormat.options", `new Intl.NumberFormat("en-US", ${J(o)}).format(${n})`);
for (const l of ["en-US", "de", "ja", "ar-EG", "fr"]) {
  add("NumberFormat.formatToParts", `JSON.stringify(new Intl.NumberFormat(${J(l)}, {style:"currency",currency:"EUR"}).formatToParts(-1234.56))`);
  add("NumberFormat.formatToParts", `JSON.stringify(new Intl.NumberFormat(${J(l)}, {notation:"compact"}).formatToParts(1234567))`);
  add("NumberFormat.formatToParts", `JSON.stringify(new Intl.NumberFormat(${J(l)}, {style:"unit",unit:"kilometer",unitDisplay:"long"}).formatToParts(12.5))`);
  add("NumberFormat.formatToParts", `JSON.stringify(new Intl.NumberFormat(${J(l)}, {notation:"scientific"}).formatToParts(-0.00012345))`);
  add("NumberFormat.formatRange", `new Intl.NumberFormat(${J(l)}, {style:"currency",currency:"USD"}).formatRange(3, 5)`);
  add("NumberFormat.formatRange", `new Intl.NumberFormat(${J(l)}).formatRange(1000, 5000)`);
  add("NumberFormat.formatRange", `new Intl.NumberFormat(${J(l)}, {style:"percent"}).formatRange(0.1, 0.2)`);
  add("NumberFormat.formatRange", `new Intl.NumberFormat(${J(l)}, {style:"unit",unit:"meter",unitDisplay:"long"}).formatRange(3, 5)`);
  add("NumberFormat.formatRange", `new Intl.NumberFormat(${J(l)}, {maximumFractionDigits:0}).formatRange(2.9, 3.1)`);
  add("NumberFormat.formatRangeToParts", `JSON.stringify(new Intl.NumberFormat(${J(l)}, {style:"currency",currency:"EUR"}).formatRangeToParts(3, 5))`);
}
for (const e of [`new Intl.NumberFormat("en", {style:"currency"})`, `new Intl.NumberFormat("en", {style:"currency", currency:"US"})`, `new Intl.NumberFormat("en", {style:"unit", unit:"furlong"})`,
  `new Intl.NumberFormat("en", {maximumFractionDigits: 200})`, `new Intl.NumberFormat("en", {roundingIncrement: 3})`, `new Intl.NumberFormat("en-u-nu-thai").format(123)`,
  `new Intl.NumberFormat("en", {numberingSystem:"arab"}).format(123.5)`, `new Intl.NumberFormat("xx-YY").resolvedOptions().locale`, `new Intl.NumberFormat("de-AT-u-nu-latn").resolvedOptions().locale`,
  `Intl.NumberFormat("en").format(1)`, `Intl.NumberFormat.supportedLocalesOf(["en-US", "xx", "de-DE", "zh-Hant-TW"]).join()`, `new Intl.NumberFormat().format(12345.678)`,
  `new Intl.NumberFormat("en").format(12345678901234567890n)`, `new Intl.NumberFormat("en").format("1234.5678901234567890123")`, `new Intl.NumberFormat("en", {maximumFractionDigits: 20}).format("0.1")`,
  `Object.prototype.toString.call(new Intl.NumberFormat())`, `new Intl.NumberFormat() instanceof Intl.NumberFormat`, `typeof Intl.NumberFormat.prototype.format`,
  `new Intl.NumberFormat("en", {style:"currency", currency:"usd"}).resolvedOptions().currency`]) add("NumberFormat.misc", e);

const out = cases.map((c) => {
  let v;
  try {
    v = (0, eval)(c.expr);
    v = typeof v === "string" ? v : J(v);
  } catch (e) {
    v = "!" + e.constructor.name;
  }
  return { group: c.group, expr: c.expr, want: v };
});
fs.writeFileSync(__dirname + "/golden.json", "[\n" + out.map((o) => J(o)).join(",\n") + "\n]\n");
console.log(out.length, "cases");
