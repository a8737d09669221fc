// Emotion: styled components and the css prop rendered on the server, the
// critical CSS extracted with @emotion/server.
/** @jsxImportSource @emotion/react */
import { CacheProvider } from "@emotion/react";
import styled from "@emotion/styled";
import createCache from "@emotion/cache";
import createEmotionServer from "@emotion/server/create-instance";
import { renderToString } from "react-dom/server";
const Button = styled.button`color: hotpink; padding: ${(p) => (p.big ? 12 : 4)}px;`;
globalThis.render = () => {
  const cache = createCache({ key: "css" });
  const { extractCritical } = createEmotionServer(cache);
  const { html, css, ids } = extractCritical(renderToString(
    <CacheProvider value={cache}><div css={{ display: "flex", gap: 8 }}><Button big>Buy</Button><Button>Later</Button></div></CacheProvider>,
  ));
  return `<style data-emotion="css ${ids.join(" ")}">${css}</style>${html}`;
};
