globalThis.notRender = () => "I am not called render";
