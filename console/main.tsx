/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/// <reference lib="dom" />
/**
 * Entry point of the Web Console bundle (built by console/build.ts into console/dist). It
 * only mounts the app; everything talks to the server over relative URLs, so the console
 * works under a context path and never reaches another host.
 */
import { render } from "preact";
import { App } from "./app.tsx";
import { applyTheme } from "./ui/theme.ts";

applyTheme();
render(<App />, document.getElementById("root")!);
