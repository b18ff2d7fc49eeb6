/** A target as a ratio within one run, and how the run reports them. */
import { log } from './support';

export interface Timing {
  rounds: number;
  seconds: number;
  warmup: number;
}

export interface Ratio {
  target: string;
  value: number;
  /** e.g. "≥ 0.85" */
  goal: string;
  met: boolean;
  detail: string;
}

export const atLeast = (target: string, value: number, goal: number, detail: string): Ratio => ({
  target,
  value,
  goal: `≥ ${goal.toFixed(2)}`,
  met: value >= goal,
  detail,
});
export const atMost = (target: string, value: number, goal: number, detail: string): Ratio => ({
  target,
  value,
  goal: `≤ ${goal.toFixed(2)}`,
  met: value <= goal,
  detail,
});

export function logRatios(ratios: Ratio[]) {
  for (const r of ratios)
    log(
      `${r.met ? 'met    ' : 'NOT MET'} ${r.target}: ${r.value.toFixed(2)} (${r.goal}; ${r.detail})`,
    );
}
