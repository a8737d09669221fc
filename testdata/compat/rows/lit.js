// Lit: a LitElement rendered to declarative shadow DOM by @lit-labs/ssr.
import "@lit-labs/ssr/lib/install-global-dom-shim.js";
import { render } from "@lit-labs/ssr";
import { collectResultSync } from "@lit-labs/ssr/lib/render-result.js";
import { LitElement, html, css } from "lit";
class TeaCard extends LitElement {
  static properties = { name: {} };
  static styles = css`:host { display: block }`;
  render() { return html`<h3>${this.name}</h3><slot></slot>`; }
}
customElements.define("tea-card", TeaCard);
globalThis.render = () => collectResultSync(render(html`<tea-card name="Oolong"><p>light</p></tea-card>`));
