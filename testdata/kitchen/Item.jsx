/** @jsxRuntime classic */
/** @jsx h */
import { h } from "./h.js";

export function Item({ name }) {
  return <li class="item">{name}</li>;
}
