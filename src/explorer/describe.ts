// How the explorer names events and shows values, shared by the page build (tour steps) and the
// page script (buttons, history).
import type { AnyActorRef, AnyStateMachine, EventObject } from 'xstate';
import { HttpError } from '../contract/http-error';
import { eventLabel } from '../../scripts/statechart-introspection';

/** JSON.stringify replacer: files, errors, collections and actors said in words. */
export function readable(_key: string, value: unknown): unknown {
  if (typeof File !== 'undefined' && value instanceof File) return `File ${value.name} (${value.size} bytes, ${value.type || 'no type'})`;
  if (value instanceof HttpError) return `HTTP ${value.status}: ${value.serverMessage}`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  if (value && typeof value === 'object' && 'sessionId' in value && 'send' in value) return `actor ${(value as AnyActorRef).id}`;
  if (typeof value === 'function') return undefined;
  return value;
}

/** A short text for a value (an error's status and message, a file's name). */
export const describeValue = (value: unknown): string => (JSON.stringify(value, readable) ?? '').replace(/^"|"$/g, '');

/** What tells an event apart from the others of its type; empty when nothing does. */
export function describePayload(event: EventObject): string {
  const { type: _type, ...payload } = event as EventObject & Record<string, unknown>;
  // The walks name what a payload stands for where JSON cannot (a File).
  if ('chosen' in payload) return String(payload.chosen);
  if ('error' in payload) return describeValue(payload.error);
  // An actor's output is data for the next state, not what the step is.
  if ('output' in payload) return '';
  const text = JSON.stringify(payload, readable);
  if (!text || text === '{}') return '';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * `form.change ({"values":...})`, `error: fetchIdentity (HTTP 401: ...)`, `after debounce (500ms)`;
 * `done: loadLoan (answer 2 of 2)` when the walk has several events of the type that nothing else tells apart.
 */
export function describeEvent(machine: AnyStateMachine, event: EventObject, variant = 0, variants = 1): string {
  const payload = describePayload(event) || (variants > 1 ? `answer ${variant + 1} of ${variants}` : '');
  const name = eventLabel(machine, event.type);
  return payload ? `${name} (${payload})` : name;
}
