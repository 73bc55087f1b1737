/** The command watchdog lives with the neutral code, where the CDP engine shares it. */
export { withDeadline, type Watch } from "../protocol/deadline.js";
