// @reduxjs/toolkit: an async thunk awaited on the server, then rendered
// through react-redux.
import { configureStore, createSlice, createAsyncThunk } from "@reduxjs/toolkit";
import { Provider, useSelector } from "react-redux";
import { renderToString } from "react-dom/server";
const load = createAsyncThunk("cart/load", async (user) => { await null; return [{ sku: "tea-1", qty: 2, user }]; });
const cart = createSlice({
  name: "cart", initialState: { items: [], status: "idle" },
  reducers: { add(s, a) { s.items.push(a.payload); } },
  extraReducers: (b) => { b.addCase(load.pending, (s) => { s.status = "loading"; }).addCase(load.fulfilled, (s, a) => { s.status = "done"; s.items = a.payload; }); },
});
function Cart() { const { items, status } = useSelector((s) => s.cart); return <p data-status={status}>{items.map((i) => i.sku + "×" + i.qty).join(", ")}</p>; }
globalThis.render = async () => {
  const store = configureStore({ reducer: { cart: cart.reducer } });
  await store.dispatch(load("ann"));
  store.dispatch(cart.actions.add({ sku: "cup", qty: 1 }));
  return renderToString(<Provider store={store}><Cart /></Provider>) + JSON.stringify(store.getState());
};
