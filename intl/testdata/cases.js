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


// ---- DateTimeFormat ----
const instants = ["Date.UTC(2024, 2, 5, 14, 7, 9, 123)", "Date.UTC(2023, 11, 31, 23, 59, 59, 999)", "Date.UTC(1999, 6, 4, 0, 0, 0)", "Date.UTC(2024, 6, 15, 12, 0, 5)"];
const dtOpts = [
  {}, { dateStyle: "full" }, { dateStyle: "long" }, { dateStyle: "medium" }, { dateStyle: "short" }, { timeStyle: "short" }, { timeStyle: "medium" },
  { dateStyle: "medium", timeStyle: "short" }, { dateStyle: "long", timeStyle: "long" }, { dateStyle: "full", timeStyle: "full" },
  { year: "numeric", month: "long", day: "numeric" }, { year: "numeric", month: "short", day: "numeric" }, { weekday: "long", year: "numeric", month: "long", day: "numeric" },
  { month: "short", day: "numeric" }, { month: "long" }, { year: "numeric", month: "2-digit", day: "2-digit" }, { hour: "numeric", minute: "2-digit" },
  { hour: "2-digit", minute: "2-digit", second: "2-digit" }, { hour: "numeric", minute: "numeric", hour12: false }, { hour: "numeric", hourCycle: "h23" },
  { weekday: "short" }, { year: "numeric", month: "long" }, { hour: "numeric", minute: "numeric", timeZoneName: "short" },
];
const zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Asia/Tokyo"];
for (const l of locales) {
  if (l === "th" || l === "fa") continue; // other default calendars: see dates below
  for (const o of dtOpts) {
    for (const [k, t] of instants.slice(0, 2).entries()) add("DateTimeFormat.format", `new Intl.DateTimeFormat(${J(l)}, ${J({ ...o, timeZone: zones[(k + l.length) % zones.length] })}).format(${t})`);
  }
  add("DateTimeFormat.resolvedOptions", `JSON.stringify(new Intl.DateTimeFormat(${J(l)}, {timeZone: "UTC"}).resolvedOptions())`);
  add("DateTimeFormat.resolvedOptions", `JSON.stringify(new Intl.DateTimeFormat(${J(l)}, {hour: "numeric", minute: "numeric", timeZone: "UTC"}).resolvedOptions())`);
  add("Date.toLocaleString", `new Date(${instants[0]}).toLocaleString(${J(l)}, {timeZone: "America/New_York"})`);
  add("Date.toLocaleDateString", `new Date(${instants[1]}).toLocaleDateString(${J(l)}, {timeZone: "Asia/Tokyo"})`);
  add("Date.toLocaleTimeString", `new Date(${instants[2]}).toLocaleTimeString(${J(l)}, {timeZone: "Europe/Berlin"})`);
}
const tzOpts = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"];
for (const l of ["en-US", "en-GB", "de", "fr", "ja", "es", "hi"]) for (const tzn of tzOpts) for (const z of ["America/Los_Angeles", "Europe/London", "Asia/Kolkata", "UTC", "+05:30", "Australia/Sydney"])
  add("DateTimeFormat.timeZoneName", `new Intl.DateTimeFormat(${J(l)}, {hour: "numeric", minute: "numeric", timeZone: ${J(z)}, timeZoneName: ${J(tzn)}}).format(${instants[3]})`);
for (const t of instants) for (const o of [{ era: "short", year: "numeric" }, { era: "long", year: "numeric", month: "long", day: "numeric" }, { dayPeriod: "long", hour: "numeric" }, { dayPeriod: "narrow" },
  { fractionalSecondDigits: 3, second: "numeric", minute: "numeric" }, { hour: "numeric", hour12: true }, { hour: "numeric", minute: "numeric", hourCycle: "h11" },
  { hour: "numeric", minute: "numeric", hourCycle: "h24" }, { month: "narrow" }, { weekday: "narrow" }, { year: "2-digit" }, { timeStyle: "short", hour12: false }, { timeStyle: "short", hourCycle: "h23" }])
  for (const l of ["en-US", "de", "ja", "ko", "zh"]) add("DateTimeFormat.options", `new Intl.DateTimeFormat(${J(l)}, ${J({ ...o, timeZone: "UTC" })}).format(${t})`);
for (const l of ["en-US", "de", "ja", "ar-EG", "fr", "ru"]) {
  add("DateTimeFormat.formatToParts", `JSON.stringify(new Intl.DateTimeFormat(${J(l)}, {dateStyle: "full", timeStyle: "long", timeZone: "Europe/Berlin"}).formatToParts(${instants[0]}))`);
  add("DateTimeFormat.formatToParts", `JSON.stringify(new Intl.DateTimeFormat(${J(l)}, {timeZone: "UTC"}).formatToParts(${instants[1]}))`);
  for (const [a, b] of [[instants[0], "Date.UTC(2024, 2, 9, 10, 0)"], [instants[0], "Date.UTC(2024, 4, 1, 10, 0)"], [instants[0], "Date.UTC(2025, 0, 1)"], [instants[0], "Date.UTC(2024, 2, 5, 16, 30)"]]) {
    add("DateTimeFormat.formatRange", `new Intl.DateTimeFormat(${J(l)}, {timeZone: "UTC"}).formatRange(${a}, ${b})`);
    add("DateTimeFormat.formatRange", `new Intl.DateTimeFormat(${J(l)}, {year: "numeric", month: "short", day: "numeric", timeZone: "UTC"}).formatRange(${a}, ${b})`);
    add("DateTimeFormat.formatRange", `new Intl.DateTimeFormat(${J(l)}, {hour: "numeric", minute: "numeric", timeZone: "UTC"}).formatRange(${a}, ${b})`);
    add("DateTimeFormat.formatRange", `new Intl.DateTimeFormat(${J(l)}, {dateStyle: "medium", timeZone: "UTC"}).formatRange(${a}, ${b})`);
  }
  add("DateTimeFormat.formatRangeToParts", `JSON.stringify(new Intl.DateTimeFormat(${J(l)}, {month: "long", day: "numeric", timeZone: "UTC"}).formatRangeToParts(${instants[0]}, Date.UTC(2024, 2, 9)))`);
}
for (const e of [`new Intl.DateTimeFormat("en", {timeZone: "Mars/Olympus"})`, `new Intl.DateTimeFormat("en", {timeZone: "asia/kolkata"}).resolvedOptions().timeZone`,
  `new Intl.DateTimeFormat("en", {timeZone: "Etc/GMT"}).resolvedOptions().timeZone`, `new Intl.DateTimeFormat("en", {timeZone: "-0800"}).resolvedOptions().timeZone`,
  `new Intl.DateTimeFormat("en", {dateStyle: "short", year: "numeric"})`, `new Intl.DateTimeFormat("en", {hourCycle: "h25"})`, `new Intl.DateTimeFormat("en").format(NaN)`,
  `new Date(NaN).toLocaleString()`, `new Date(0).toLocaleDateString("en", {timeStyle: "short"})`, `JSON.stringify(new Intl.DateTimeFormat("en-u-hc-h23", {hour: "numeric", timeZone: "UTC"}).resolvedOptions())`,
  `JSON.stringify(new Intl.DateTimeFormat("ja-u-nu-hanidec", {timeZone: "UTC"}).resolvedOptions())`, `new Intl.DateTimeFormat("ja-u-nu-hanidec", {timeZone: "UTC"}).format(0)`,
  `new Intl.DateTimeFormat("en", {timeZone: "Asia/Calcutta"}).resolvedOptions().timeZone`, `Intl.DateTimeFormat.supportedLocalesOf("de-AT").join()`, `new Date(-62198755200000).toLocaleDateString("en", {era: "short", timeZone: "UTC"})`,
  `Object.prototype.toString.call(Intl.DateTimeFormat())`, `new Date(0).toLocaleString("en-US", {timeZone: "+05:30", timeZoneName: "short"})`, `new Intl.DateTimeFormat("en", {timeZone: "UTC", hour: "numeric", minute: "numeric", hour12: false}).format(0)`]) add("DateTimeFormat.misc", e);

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
