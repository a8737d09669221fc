// styled-components: ServerStyleSheet collects the styles of a render.
import styled, { ServerStyleSheet, createGlobalStyle } from "styled-components";
import { renderToString } from "react-dom/server";
const Global = createGlobalStyle`body { margin: 0 }`;
const Title = styled.h1`font-size: ${(p) => p.size}px; color: rebeccapurple;`;
const Box = styled.div`display: grid; & > ${Title} { margin: 0 }`;
globalThis.render = () => {
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(sheet.collectStyles(<Box><Global /><Title size={24}>Styled</Title></Box>));
    return sheet.getStyleTags() + html;
  } finally {
    sheet.seal();
  }
};
