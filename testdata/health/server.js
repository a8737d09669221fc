// TestHealthFunction: render(req) sets the state health() reports.
let state = "ok";
globalThis.render = (req) => { state = req.path.slice(1); return state; };
globalThis.health = async () => {
	await new Promise((r) => setTimeout(r, 1));
	if (state === "throw") throw new Error("database unreachable");
	return state !== "false";
};
