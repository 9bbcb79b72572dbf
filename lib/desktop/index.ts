// The AOTUI runtime as a library: `import { createDesktop, getSnapshot } from "tuiwright/desktop"`.
export { createDesktop, destroyDesktop, getDesktop, getSnapshot, listDesktops, restore, serialize } from "./runtime.ts";
export type { Command, CommandAck, Desktop, DesktopConfig, DesktopState, AppState } from "./desktop.ts";
export type { UpdateSignal, SignalReason } from "./signal-stream.ts";
export type { AotuiCode } from "./aotui-codes.ts";
export { aotuiCodeOf } from "./aotui-codes.ts";
export { SNAPSHOT_LIMIT } from "./snapshot-registry.ts";
