// i18next: resources in four languages, Intl-based number, currency,
// datetime, relativetime and list formatting, cardinal and ordinal plurals
// (Arabic's six forms, Polish's four), context, nesting; then the same
// instance rendered through react-i18next with react-dom/server.
import i18next from "i18next";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, useTranslation, Trans } from "react-i18next";

const when = new Date(Date.UTC(2024, 1, 29, 21, 5, 9)); // fixed, never the clock
const common = (o) => ({ translation: o });
const resources = {
  en: common({
    price: "Price: {{val, currency(USD)}}", big: "{{n, number}} visitors, {{n, number(notation: compact)}}",
    on: "On {{d, datetime}}", due: "Due {{v, relativetime(day)}}", teas: "Teas: {{list, list}}",
    tea_one: "{{count}} tea", tea_other: "{{count}} teas", place_ordinal_one: "{{count}}st", place_ordinal_two: "{{count}}nd",
    place_ordinal_few: "{{count}}rd", place_ordinal_other: "{{count}}th", friend: "a friend", friend_male: "a boyfriend", friend_female: "a girlfriend",
    nested: "Note: $t(tea, {\"count\": 2})", welcome: "Hello <1>{{name}}</1>, you have <3>{{count}}</3> messages.",
  }),
  de: common({
    price: "Preis: {{val, currency(EUR)}}", big: "{{n, number}} Besucher, {{n, number(notation: compact)}}",
    on: "Am {{d, datetime}}", due: "Fällig {{v, relativetime(day)}}", teas: "Tees: {{list, list}}",
    tea_one: "{{count}} Tee", tea_other: "{{count}} Tees", place_ordinal_other: "{{count}}.",
    friend: "ein Freund", friend_female: "eine Freundin", nested: "Notiz: $t(tea, {\"count\": 2})",
  }),
  ar: common({
    price: "السعر: {{val, currency(EGP)}}", big: "{{n, number}} زائر، {{n, number(notation: compact)}}",
    on: "في {{d, datetime}}", due: "الاستحقاق {{v, relativetime(day)}}", teas: "الشاي: {{list, list}}",
    tea_zero: "لا شاي", tea_one: "شاي واحد", tea_two: "كوبان", tea_few: "{{count}} أكواب", tea_many: "{{count}} كوبًا", tea_other: "{{count}} كوب",
  }),
  pl: common({
    price: "Cena: {{val, currency(PLN)}}", big: "{{n, number}} gości, {{n, number(notation: compact)}}",
    on: "Dnia {{d, datetime}}", due: "Termin {{v, relativetime(day)}}", teas: "Herbaty: {{list, list}}",
    tea_one: "{{count}} herbata", tea_few: "{{count}} herbaty", tea_many: "{{count}} herbat", tea_other: "{{count}} herbaty",
  }),
};

function Inbox({ name, count }) {
  const { t, i18n } = useTranslation();
  return h("div", { lang: i18n.language },
    h("p", null, t("tea", { count }), " · ", t("on", { d: when, formatParams: { d: { dateStyle: "long", timeZone: "UTC" } } })),
    h("p", null, h(Trans, { i18nKey: "welcome", values: { name }, count }, "Hello ", h("strong", null, "{{name}}"), ", you have ", h("b", null, "{{count}}"), " messages.")));
}

globalThis.render = async () => {
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng: "en", fallbackLng: "en", showSupportNotice: false, interpolation: { escapeValue: false } });
  const out = [];
  for (const lng of ["en", "de", "ar", "pl"]) {
    const t = i18n.getFixedT(lng);
    out.push(`<h2>${lng}</h2>`);
    out.push(t("price", { val: 1234567.891 }), t("big", { n: 9876543 }));
    out.push(t("on", { d: when, formatParams: { d: { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "Asia/Tokyo", timeZoneName: "short" } } }));
    out.push(t("due", { v: -3 }), t("due", { v: 1, formatParams: { v: { numeric: "auto" } } }));
    out.push(t("teas", { list: ["Sencha", "Oolong", "Chai"] }), t("teas", { list: ["A", "B"], formatParams: { list: { type: "disjunction" } } }));
    out.push([0, 1, 2, 3, 5, 11, 12, 22, 100, 101, 1.5].map((count) => t("tea", { count })).join(" / "));
    if (lng === "en" || lng === "de") {
      out.push([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map((count) => t("place", { count, ordinal: true })).join(" "));
      out.push(t("friend"), t("friend", { context: "male" }), t("friend", { context: "female" }), t("nested"));
    }
  }
  await i18n.changeLanguage("en");
  const html = renderToString(h(I18nextProvider, { i18n }, h(Inbox, { name: "Ada", count: 1 }), h(Inbox, { name: "Li", count: 7 })));
  return "<main>" + out.join("\n") + "\n" + html + "</main>";
};
