/** Unhandled rejections and uncaught exceptions of this process while the suite runs (installed on import). */
export const unhandled: string[] = [];
process.on("unhandledRejection", (reason) => void unhandled.push(`unhandled rejection: ${String(reason)}`));
process.on("uncaughtException", (error) => void unhandled.push(`uncaught exception: ${String(error)}`));
