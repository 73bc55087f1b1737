import { CapacityError, NotFoundError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { ResolvedOpenOptions } from "../protocol/open-options.js";
import type { PagesResult } from "../protocol/results.js";
import { refusalReason, sanitizeUrl } from "../protocol/url-policy.js";
import type { Checkpoint, StateStore } from "./stores.js";

/** A page URL as a checkpoint keeps it: sanitised http(s), or about:blank for anything else. */
export function checkpointUrl(url: string): string {
  const clean = sanitizeUrl(url);
  return refusalReason(clean) === undefined && clean !== "[invalid URL]" ? clean : "about:blank";
}

/** Checkpoints of a manager: at most 64, persisted in its state store. */
export class CheckpointBook {
  private checkpoints: Checkpoint[] = [];

  constructor(private readonly store: StateStore) {}

  load(stored: readonly Checkpoint[]): void {
    this.checkpoints = [...stored];
  }

  async add(input: {
    sessionId: string;
    backend: string;
    options: ResolvedOpenOptions;
    pages: PagesResult;
    now: number;
  }): Promise<Checkpoint> {
    if (this.checkpoints.length >= limits.manager.checkpointsMax) {
      throw new CapacityError(`At most ${limits.manager.checkpointsMax} checkpoints are kept; delete one first`);
    }
    const { openTag: _openTag, ...options } = input.options;
    const checkpoint: Checkpoint = {
      id: `cp_${crypto.randomUUID()}`,
      createdAt: new Date(input.now).toISOString(),
      sessionId: input.sessionId,
      backend: input.backend,
      options,
      pages: input.pages.pages.map((page) => ({ url: checkpointUrl(page.url), title: page.title.slice(0, 200) })),
      selectedIndex: Math.max(0, input.pages.pages.findIndex((page) => page.pageId === input.pages.selectedPageId)),
    };
    const next = [...this.checkpoints, checkpoint];
    await this.store.writeCheckpoints(next);
    this.checkpoints = next;
    return checkpoint;
  }

  get(checkpointId: string): Checkpoint {
    const checkpoint = this.checkpoints.find((candidate) => candidate.id === checkpointId);
    if (!checkpoint) throw new NotFoundError(`Checkpoint ${checkpointId} does not exist`);
    return checkpoint;
  }

  async delete(checkpointId: string): Promise<void> {
    this.get(checkpointId);
    const next = this.checkpoints.filter((candidate) => candidate.id !== checkpointId);
    await this.store.writeCheckpoints(next);
    this.checkpoints = next;
  }

  list(): Checkpoint[] {
    return [...this.checkpoints];
  }
}
