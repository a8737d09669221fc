function loadConfig() {
  throw new Error("config missing at boot");
}
loadConfig();
globalThis.render = () => "never";
