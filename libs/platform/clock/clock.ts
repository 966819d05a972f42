import { EventEmitter } from 'node:events';

/** Time source, injected so that domain rules about time (7-day retention) can be tested without waiting. */
export interface Clock {
  now(): number;
  /** Notified when time jumps (only a manual clock does this). */
  onJump(listener: () => void): void;
}

export const CLOCK = Symbol('CLOCK');

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
  onJump(): void {}
}

/** A clock that starts at real time and can be moved forward by tests. */
export class ManualClock implements Clock {
  private offset = 0;
  private readonly events = new EventEmitter();
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.base() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
    this.events.emit('jump');
  }
  onJump(listener: () => void): void {
    this.events.on('jump', listener);
  }
}
