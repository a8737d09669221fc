// react-intl: IntlProvider in five locales, numbers, dates and times in an
// explicit time zone, relative times, plurals, lists and ICU messages.
import { IntlProvider, FormattedNumber, FormattedDate, FormattedTime, FormattedRelativeTime, FormattedPlural, FormattedList, FormattedMessage, FormattedDisplayName, useIntl } from "react-intl";
import { renderToString } from "react-dom/server";

const when = Date.UTC(2024, 1, 29, 21, 5, 9); // a fixed instant, never the clock
const messages = {
  cart: "{name} has {count, plural, =0 {no teas} one {# tea} other {# teas}} in {gender, select, female {her} male {his} other {their}} cart, {total, number, ::currency/EUR}.",
  shipped: "Shipped {when, date, ::yyyyMMMd} at {when, time, short}; {rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} order.",
  rich: "Read <b>{count, plural, one {one review} other {{count, number} reviews}}</b>.",
};

function Summary() {
  const intl = useIntl();
  return <p>{intl.formatNumber(0.0725, { style: "percent", minimumFractionDigits: 1 })} · {intl.formatDate(when, { dateStyle: "full", timeZone: "UTC" })} · {intl.formatList(["a", "b", "c"], { type: "disjunction" })}</p>;
}

function Page({ locale }) {
  return (
    <IntlProvider locale={locale} messages={messages} defaultLocale="en-US" timeZone="America/New_York" onError={() => {}}>
      <section lang={locale}>
        <p><FormattedNumber value={1234567.891} style="currency" currency="USD" /> | <FormattedNumber value={-42.5} style="currency" currency="JPY" currencyDisplay="name" /> | <FormattedNumber value={0.256} style="percent" /> | <FormattedNumber value={1234567} notation="compact" /> | <FormattedNumber value={98765} notation="compact" compactDisplay="long" /> | <FormattedNumber value={3.5} style="unit" unit="kilometer-per-hour" unitDisplay="long" /></p>
        <p><FormattedDate value={when} year="numeric" month="long" day="numeric" weekday="long" timeZone="Asia/Tokyo" /> | <FormattedDate value={when} dateStyle="medium" timeZone="UTC" /> | <FormattedTime value={when} timeZone="Europe/Berlin" /> | <FormattedTime value={when} hour="numeric" minute="2-digit" timeZoneName="short" timeZone="America/Sao_Paulo" /> | <FormattedDate value={when} /></p>
        <p><FormattedRelativeTime value={-3} unit="day" /> | <FormattedRelativeTime value={1} unit="day" numeric="auto" /> | <FormattedRelativeTime value={2} unit="hour" style="short" /> | <FormattedRelativeTime value={-1} unit="month" numeric="auto" /></p>
        <p>{[0, 1, 2, 5, 11, 100].map((n) => <FormattedPlural key={n} value={n} zero="zero" one="one" two="two" few="few" many="many" other="other" />)} | <FormattedPlural value={3} type="ordinal" one="st" two="nd" few="rd" other="th" /></p>
        <p><FormattedList type="conjunction" value={["Sencha", "Oolong", "Chai"]} /> | <FormattedList type="unit" style="narrow" value={["5 kg", "2 g"]} /> | <FormattedDisplayName type="region" value="BR" /> | <FormattedDisplayName type="language" value="ja" /></p>
        <p><FormattedMessage id="cart" values={{ name: "Ada", count: 3, gender: "female", total: 1234.5 }} /></p>
        <p><FormattedMessage id="cart" values={{ name: "Li", count: 1, gender: "male", total: 7 }} /> <FormattedMessage id="cart" values={{ name: "Sam", count: 0, gender: "x", total: 0 }} /></p>
        <p><FormattedMessage id="shipped" values={{ when, rank: 22 }} /></p>
        <p><FormattedMessage id="rich" values={{ count: 12345, b: (chunks) => <b>{chunks}</b> }} /></p>
        <p><FormattedMessage id="missing" defaultMessage="Hello {who}!" values={{ who: "world" }} /></p>
        <Summary />
      </section>
    </IntlProvider>
  );
}

globalThis.render = () => renderToString(<main>{["en-US", "de-DE", "ja-JP", "ar-EG", "pt-BR"].map((l) => <Page key={l} locale={l} />)}</main>);
