// Writes intl/internal/cldr/icu.json: the lists ICU (not CLDR) decides,
// taken from Node 20 (ICU 78.2): Intl.supportedValuesOf for currency and
// timeZone, and the name each IANA zone or link resolves to (ICU keeps the
// old canonical ids, e.g. Asia/Calcutta). Run: node icu-lists.js [tzdata.zi]
"use strict";
const fs = require("fs");
const zi = process.argv[2] || "/usr/share/zoneinfo/tzdata.zi";
const names = new Set(Intl.supportedValuesOf("timeZone"));
for (const line of fs.readFileSync(zi, "utf8").split("\n")) {
  const f = line.split(/\s+/);
  if (f[0] === "Z") names.add(f[1]);
  if (f[0] === "L") { names.add(f[1]); names.add(f[2]); }
}
const canon = {};
for (const n of [...names].sort()) {
  try {
    const r = new Intl.DateTimeFormat("en", { timeZone: n }).resolvedOptions().timeZone;
    canon[n] = r;
  } catch (e) {}
}
// zone → ISO country, from the tz database's zone.tab, under ICU's ids
const country = {};
const tab = zi.replace(/tzdata\.zi$/, "zone.tab");
for (const line of fs.readFileSync(tab, "utf8").split("\n")) {
  if (!line || line[0] === "#") continue;
  const f = line.split("\t");
  const id = canon[f[2]] || f[2];
  country[id] = f[0];
}
const out = {
  country,
  currency: Intl.supportedValuesOf("currency"),
  timeZone: Intl.supportedValuesOf("timeZone"),
  zones: canon,
};
fs.writeFileSync(__dirname + "/../cldr/icu.json", JSON.stringify(out) + "\n");
console.log(Object.keys(canon).length, "zones");
