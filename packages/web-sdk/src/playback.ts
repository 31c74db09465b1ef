// Plays the replies' audio: each piece is scheduled right after the previous one on the context's
// clock (no gaps while audio keeps arriving faster than it plays), and what was heard of a reply
// is measured from that clock, for voice.interrupt's playedMs.

/** Lead before the first piece (or after running dry), so a late piece does not click. */
const LEAD_S = 0.06;

interface Response {
  id: string;
  sources: Set<AudioBufferSourceNode>;
  /** [start, duration] on the context's clock, in seconds. */
  spans: Array<[number, number]>;
  /** All its audio has arrived. */
  complete: boolean;
  stoppedAt: number | null;
}

export class Player {
  /** When the next piece starts. */
  private next = 0;
  private response: Response | null = null;
  /** The last few replies, for a barge-in that comes after one ended. */
  private readonly past = new Map<string, Response>();
  private playing = false;
  /** The current reply's sample rate. */
  private rate = 16_000;

  constructor(
    private readonly context: AudioContext,
    private readonly onPlaying: (playing: boolean) => void,
  ) {}

  /** A new reply: it plays after what is still playing. */
  begin(id: string, rate: number): void {
    this.response = { id, sources: new Set(), spans: [], complete: false, stoppedAt: null };
    this.remember(this.response);
    this.rate = rate;
  }

  push(id: string, pcm: Int16Array): void {
    const response = this.response;
    if (response?.id !== id || response.stoppedAt !== null || pcm.length === 0) return;
    const buffer = this.context.createBuffer(1, pcm.length, this.rate);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < pcm.length; i++) channel[i] = (pcm[i] as number) / 32768;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.context.destination);
    const now = this.context.currentTime;
    if (this.next < now + 0.01) this.next = now + LEAD_S;
    source.start(this.next);
    response.spans.push([this.next, buffer.duration]);
    this.next += buffer.duration;
    response.sources.add(source);
    source.onended = () => {
      response.sources.delete(source);
      this.settle();
    };
    this.setPlaying(true);
  }

  /** All of the reply has arrived: it plays to its end. */
  finish(id: string): void {
    const response = this.past.get(id);
    if (!response) return;
    response.complete = true;
    this.settle();
  }

  /** The reply playing now (or still to play), if any. */
  current(): string | null {
    return this.playing && this.response ? this.response.id : null;
  }

  /** Stops the reply at once; returns the milliseconds of it that were heard. */
  cut(id: string): number {
    const response = this.past.get(id);
    if (!response) return 0;
    // What reached the speakers: the clock less the output's latency.
    if (response.stoppedAt === null) response.stoppedAt = this.context.currentTime - (this.context.outputLatency || 0);
    this.stopSources(response);
    if (response === this.response) this.next = 0;
    this.settle();
    return played(response, response.stoppedAt) * 1000;
  }

  close(): void {
    for (const response of this.past.values()) this.stopSources(response);
    this.past.clear();
    this.response = null;
    this.setPlaying(false);
  }

  private stopSources(response: Response): void {
    for (const source of response.sources) {
      source.onended = null;
      try {
        source.stop();
      } catch {
        // not started yet in some browsers' eyes: nothing to stop
      }
      source.disconnect();
    }
    response.sources.clear();
  }

  private remember(response: Response): void {
    this.past.set(response.id, response);
    for (const id of this.past.keys()) if (this.past.size > 4) this.past.delete(id);
  }

  /** Not playing once nothing is scheduled and the current reply has all arrived (or was cut). */
  private settle(): void {
    const busy = [...this.past.values()].some((response) => response.sources.size > 0);
    const waiting = this.response !== null && !this.response.complete && this.response.stoppedAt === null;
    if (!busy && !waiting) this.setPlaying(false);
  }

  private setPlaying(playing: boolean): void {
    if (playing === this.playing) return;
    this.playing = playing;
    this.onPlaying(playing);
  }
}

/** Seconds of a reply heard by `at` on the context's clock. */
function played(response: Response, at: number): number {
  let total = 0;
  for (const [start, duration] of response.spans) total += Math.min(Math.max(at - start, 0), duration);
  return total;
}
