/**
 * Resolves once something listens for `signal`'s abort. The engine checks a
 * signal before it starts a command and listens to it while the command runs,
 * so this is the point at which a command is under way: a test can cancel it
 * then, or change the page under it, without guessing a delay.
 */
export function listenedTo(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const add = signal.addEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions) => {
      add(type, listener, options);
      if (type === "abort") resolve();
    }) as AbortSignal["addEventListener"];
  });
}
