/**
 * The part of the Chrome DevTools Protocol the CDP client is typed for,
 * written by hand (the `devtools-protocol` package is not a dependency):
 * each command's parameters and result, and each event's parameters. A
 * method missing here is added when code first sends it; names and fields
 * are the protocol's own (https://chromedevtools.github.io/devtools-protocol/).
 */

/** `Target.TargetInfo`. */
export interface TargetInfo {
  targetId: string;
  /** `page`, `iframe`, `worker`, `service_worker`, `browser`, … */
  type: string;
  title: string;
  url: string;
  attached: boolean;
  /** The target that opened this one (a popup's opener page). */
  openerId?: string;
  canAccessOpener?: boolean;
  openerFrameId?: string;
  browserContextId?: string;
  subtype?: string;
}

/** `Runtime.RemoteObject` (the fields the client reads). */
export interface RemoteObject {
  type: string;
  subtype?: string;
  className?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  objectId?: string;
  preview?: { properties: Array<{ name: string; value?: string }> };
}

/** `Runtime.ExceptionDetails` (the fields the client reads). */
export interface ExceptionDetails {
  exceptionId: number;
  text: string;
  lineNumber: number;
  columnNumber: number;
  exception?: RemoteObject;
  stackTrace?: StackTrace;
}

/** `Runtime.StackTrace` (the fields the client reads). */
export interface StackTrace {
  callFrames: Array<{ functionName: string; url: string; lineNumber: number; columnNumber: number }>;
}

/** `Page.Frame` (the fields the client reads). */
export interface Frame {
  id: string;
  parentId?: string;
  loaderId: string;
  url: string;
  securityOrigin?: string;
}

type Empty = Record<string, never>;

/** Every typed command: method → `{ params, result }`. */
export interface CdpCommands {
  "Browser.getVersion": {
    params: Empty;
    result: { protocolVersion: string; product: string; revision: string; userAgent: string; jsVersion: string };
  };
  "Browser.close": { params: Empty; result: Empty };
  "Browser.setDownloadBehavior": {
    params: { behavior: "deny" | "allow" | "allowAndName" | "default"; browserContextId?: string; downloadPath?: string; eventsEnabled?: boolean };
    result: Empty;
  };
  "Browser.cancelDownload": { params: { guid: string; browserContextId?: string }; result: Empty };
  "DOM.setFileInputFiles": { params: { files: string[]; nodeId?: number; backendNodeId?: number; objectId?: string }; result: Empty };
  "DOM.describeNode": { params: { objectId?: string; backendNodeId?: number }; result: { node: { nodeName: string; frameId?: string } } };
  "Runtime.releaseObjectGroup": { params: { objectGroup: string }; result: Empty };
  "Runtime.callFunctionOn": {
    params: { functionDeclaration: string; objectId?: string; executionContextId?: number; arguments?: Array<{ value?: unknown; objectId?: string }>; returnByValue?: boolean; awaitPromise?: boolean; objectGroup?: string };
    result: { result: RemoteObject; exceptionDetails?: ExceptionDetails };
  };
  "Target.getTargets": { params: Empty; result: { targetInfos: TargetInfo[] } };
  "Target.createTarget": {
    params: { url: string; browserContextId?: string; newWindow?: boolean; background?: boolean };
    result: { targetId: string };
  };
  "Target.closeTarget": { params: { targetId: string }; result: { success?: boolean } };
  "Target.attachToTarget": { params: { targetId: string; flatten: true }; result: { sessionId: string } };
  "Target.detachFromTarget": { params: { sessionId: string }; result: Empty };
  "Target.setAutoAttach": {
    params: { autoAttach: boolean; waitForDebuggerOnStart: boolean; flatten: true; filter?: Array<{ type?: string; exclude?: boolean }> };
    result: Empty;
  };
  "Target.setDiscoverTargets": { params: { discover: boolean }; result: Empty };
  "Target.createBrowserContext": { params: { disposeOnDetach?: boolean }; result: { browserContextId: string } };
  "Target.disposeBrowserContext": { params: { browserContextId: string }; result: Empty };
  "Page.enable": { params: Empty; result: Empty };
  "Page.navigate": {
    params: { url: string; referrer?: string; frameId?: string };
    result: { frameId: string; loaderId?: string; errorText?: string };
  };
  "Page.getFrameTree": { params: Empty; result: { frameTree: FrameTree } };
  "Page.setLifecycleEventsEnabled": { params: { enabled: boolean }; result: Empty };
  "Page.reload": { params: { ignoreCache?: boolean }; result: Empty };
  "Page.crash": { params: Empty; result: Empty };
  "Page.createIsolatedWorld": {
    params: { frameId: string; worldName?: string; grantUniveralAccess?: boolean };
    result: { executionContextId: number };
  };
  "Page.addScriptToEvaluateOnNewDocument": {
    params: { source: string; worldName?: string; runImmediately?: boolean };
    result: { identifier: string };
  };
  "Page.getNavigationHistory": { params: Empty; result: { currentIndex: number; entries: NavigationEntry[] } };
  "Page.navigateToHistoryEntry": { params: { entryId: number }; result: Empty };
  "Page.bringToFront": { params: Empty; result: Empty };
  "Page.handleJavaScriptDialog": { params: { accept: boolean; promptText?: string }; result: Empty };
  "Page.captureScreenshot": {
    params: {
      format?: "png" | "jpeg";
      quality?: number;
      clip?: { x: number; y: number; width: number; height: number; scale: number };
      fromSurface?: boolean;
    };
    result: { data: string };
  };
  "Emulation.setDeviceMetricsOverride": {
    params: { width: number; height: number; deviceScaleFactor: number; mobile: boolean };
    result: Empty;
  };
  "Emulation.setFocusEmulationEnabled": {
    params: { enabled: boolean };
    result: Empty;
  };
  "Input.dispatchMouseEvent": {
    params: {
      type: "mousePressed" | "mouseReleased" | "mouseMoved" | "mouseWheel";
      x: number;
      y: number;
      modifiers?: number;
      button?: "none" | "left" | "middle" | "right" | "back" | "forward";
      buttons?: number;
      clickCount?: number;
      /** `mouseWheel`: how far (CSS pixels). */
      deltaX?: number;
      deltaY?: number;
    };
    result: Empty;
  };
  "Input.setInterceptDrags": { params: { enabled: boolean }; result: Empty };
  "Input.dispatchDragEvent": {
    params: { type: "dragEnter" | "dragOver" | "drop" | "dragCancel"; x: number; y: number; data: DragData; modifiers?: number };
    result: Empty;
  };
  "Input.dispatchKeyEvent": {
    params: {
      type: "keyDown" | "keyUp" | "rawKeyDown" | "char";
      modifiers?: number;
      text?: string;
      unmodifiedText?: string;
      key?: string;
      code?: string;
      windowsVirtualKeyCode?: number;
      nativeVirtualKeyCode?: number;
      autoRepeat?: boolean;
      isKeypad?: boolean;
      location?: number;
    };
    result: Empty;
  };
  "Input.insertText": { params: { text: string }; result: Empty };
  "Runtime.enable": { params: Empty; result: Empty };
  "Network.enable": { params: Empty; result: Empty };
  "Network.getCookies": { params: { urls?: string[] }; result: { cookies: Array<{ name: string }> } };
  "Log.enable": { params: Empty; result: Empty };
  "Runtime.runIfWaitingForDebugger": { params: Empty; result: Empty };
  "Runtime.evaluate": {
    params: {
      expression: string;
      returnByValue?: boolean;
      awaitPromise?: boolean;
      userGesture?: boolean;
      contextId?: number;
      timeout?: number;
      /** Where a returned object's handle is kept, to be released with `Runtime.releaseObjectGroup`. */
      objectGroup?: string;
    };
    result: { result: RemoteObject; exceptionDetails?: ExceptionDetails };
  };
}

/** `Page.NavigationEntry` (the fields the client reads). */
export interface NavigationEntry {
  id: number;
  url: string;
  title: string;
}

/** `Page.FrameTree`. */
export interface FrameTree {
  frame: Frame;
  childFrames?: FrameTree[];
}

/** `Input.DragData`: what a drag carries (from `Input.dragIntercepted`, handed back to `Input.dispatchDragEvent`). */
export interface DragData {
  items: Array<{ mimeType: string; data: string; title?: string; baseURL?: string }>;
  files?: string[];
  dragOperationsMask: number;
}

/** Every typed event: method → params. */
export interface CdpEvents {
  "Target.attachedToTarget": { sessionId: string; targetInfo: TargetInfo; waitingForDebugger: boolean };
  "Target.detachedFromTarget": { sessionId: string; targetId?: string };
  "Target.targetCreated": { targetInfo: TargetInfo };
  "Target.targetInfoChanged": { targetInfo: TargetInfo };
  /** With `Browser.setDownloadBehavior` `eventsEnabled`, on the browser session. */
  "Browser.downloadWillBegin": { frameId: string; guid: string; url: string; suggestedFilename: string };
  "Browser.downloadProgress": { guid: string; totalBytes: number; receivedBytes: number; state: "inProgress" | "completed" | "canceled"; filePath?: string };
  "Target.targetDestroyed": { targetId: string };
  "Target.targetCrashed": { targetId: string; status: string; errorCode: number };
  "Inspector.detached": { reason: string };
  /** No params (listeners get `{}`). */
  "Inspector.targetCrashed": void;
  "Page.loadEventFired": { timestamp: number };
  "Page.domContentEventFired": { timestamp: number };
  "Page.frameNavigated": { frame: Frame; type?: string };
  "Page.frameAttached": { frameId: string; parentFrameId: string };
  "Page.frameRequestedNavigation": { frameId: string; reason: string; url: string; disposition: string };
  "Page.frameStartedNavigating": { frameId: string; url: string; loaderId: string; navigationType: string };
  "Page.frameStartedLoading": { frameId: string };
  "Page.frameStoppedLoading": { frameId: string };
  "Page.navigatedWithinDocument": { frameId: string; url: string; navigationType: string };
  "Page.javascriptDialogClosed": { result: boolean; userInput: string };
  "Page.lifecycleEvent": { frameId: string; loaderId: string; name: string; timestamp: number };
  "Page.javascriptDialogOpening": { url: string; message: string; type: string; defaultPrompt?: string };
  "Page.windowOpen": { url: string; windowName: string; windowFeatures: string[]; userGesture: boolean };
  "Input.dragIntercepted": { data: DragData };
  "Runtime.consoleAPICalled": { type: string; args: RemoteObject[]; executionContextId: number; timestamp: number; stackTrace?: StackTrace };
  "Runtime.exceptionThrown": { timestamp: number; exceptionDetails: ExceptionDetails };
  "Log.entryAdded": { entry: { source: string; level: string; text: string; url?: string } };
  "Network.requestWillBeSent": { requestId: string; loaderId: string; frameId?: string; type?: string; request: { url: string } };
  "Network.responseReceived": { requestId: string; loaderId: string; frameId?: string; type: string; response: { url: string; status: number; headers: Record<string, string> } };
  "Network.loadingFinished": { requestId: string };
  "Network.loadingFailed": { requestId: string; type: string; errorText: string; canceled?: boolean; blockedReason?: string };
  "Runtime.executionContextCreated": { context: { id: number; origin: string; name: string; uniqueId: string; auxData?: Record<string, unknown> } };
  "Runtime.executionContextDestroyed": { executionContextId: number; executionContextUniqueId: string };
  /** No params (listeners get `{}`). */
  "Runtime.executionContextsCleared": void;
}

export type CdpMethod = keyof CdpCommands;
export type CdpEventName = keyof CdpEvents;
export type CdpParams<Method extends CdpMethod> = CdpCommands[Method]["params"];
export type CdpResult<Method extends CdpMethod> = CdpCommands[Method]["result"];
