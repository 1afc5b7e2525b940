/** Whether the last request reached the server; shown in the footer (`connection-status`). */
import { Store } from "./store.ts";

export type Connection = "connected" | "disconnected";

export const connectionStore = new Store<Connection>("connected");

export function setConnection(state: Connection): void {
  connectionStore.set(state);
}
