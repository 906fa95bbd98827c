// What the details panel shows under a message or a slice to follow the
// program's flow: for a message, links to the slices of its send and its
// receive; for a slice, its wait state, its share of the critical path and
// the messages it sent and received, each a link. Only DOM: the data and what
// a click does come from the caller (app/linked_details.ts).
import { formatDuration, formatTime } from '../base/format';
import type { End, MessageEnds, SliceLinks } from '../engine/links';
import type { TraceSummary } from '../protocol/api.gen';
import { rowLabel } from './details';
import { h } from './dom';

const WAIT_NAMES: Record<string, string> = {
  'late-sender': 'late sender',
  'late-receiver': 'late receiver',
  collective: 'collective wait',
};

function link(text: string, attrs: Record<string, string | number>, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'details-link', ...attrs }, text);
  b.addEventListener('click', onClick);
  return b;
}

/** A message's links: "send slice on …" and "receive slice on …". */
export function messageLinks(summary: TraceSummary, m: MessageEnds, jump: (end: End) => void): HTMLElement {
  const recv = m.recvRow >= 0;
  return h(
    'div',
    { 'data-testid': 'details-message-links' },
    h('h3', {}, 'Follow'),
    link(`→ send slice on ${rowLabel(summary, m.sendRow)}`, { 'data-testid': 'details-send-slice' }, () => jump('send')),
    recv ? link(`→ receive slice on ${rowLabel(summary, m.recvRow)}`, { 'data-testid': 'details-recv-slice' }, () => jump('recv')) : null,
  );
}

/** One line for a wait: 'late sender: waited 1.2 ms for rank 0 / main'. */
export function waitText(summary: TraceSummary, w: NonNullable<SliceLinks['wait']>): string {
  const kind = WAIT_NAMES[w.kind] ?? w.kind;
  const cause = w.cause_row >= 0 ? ` for ${rowLabel(summary, w.cause_row)}` : '';
  return `${kind}: waited ${formatDuration(w.end - w.begin)}${cause}`;
}

/** One line for the critical path: 'on it for 1.2 ms (80 % of the slice)' or 'not on it'. */
export function pathText(onPath: number, duration: number): string {
  if (onPath <= 0) return 'not on the critical path';
  const share = duration > 0 ? Math.min(100, Math.round((onPath / duration) * 100)) : 100;
  return `on the critical path for ${formatDuration(onPath)} (${share} % of the slice)`;
}

/** A slice's wait state, critical path and messages; a message clicked is shown with `open`. */
export function sliceLinks(
  summary: TraceSummary,
  duration: number,
  l: SliceLinks,
  open: (m: MessageEnds, end: End) => void,
): HTMLElement {
  const dl = h('dl', { class: 'details-list' });
  if (l.waitsKnown) {
    dl.append(h('dt', {}, 'Wait state'), h('dd', { 'data-testid': 'details-wait', 'data-kind': l.wait?.kind ?? 'none' }, l.wait ? waitText(summary, l.wait) : 'none'));
  }
  if (l.onPath !== null) {
    dl.append(h('dt', {}, 'Critical path'), h('dd', { 'data-testid': 'details-path', 'data-on-path': String(l.onPath > 0) }, pathText(l.onPath, duration)));
  }
  const items: HTMLElement[] = [];
  const entry = (m: MessageEnds, end: End): HTMLElement => {
    const other = end === 'send' ? m.recvRow : m.sendRow;
    const verb = end === 'send' ? 'sent to' : 'received from';
    const time = end === 'send' ? m.send : m.recv;
    const text = `${verb} ${rowLabel(summary, other)} at ${formatTime(time)} (${m.bytes} B, tag ${m.tag})`;
    return h('li', {}, link(text, { 'data-testid': 'details-message', 'data-message': m.id, 'data-end': end }, () => open(m, end)));
  };
  for (const m of l.sent) items.push(entry(m, 'send'));
  for (const m of l.received) items.push(entry(m, 'recv'));
  const count = l.sent.length + l.received.length;
  const title = l.messagesKnown
    ? `Messages (${l.sent.length} sent, ${l.received.length} received${l.truncated ? ', more not listed' : ''})`
    : 'Messages';
  const none = l.messagesKnown ? 'none in this slice' : 'not known: the server has not paired the messages';
  return h(
    'div',
    { 'data-testid': 'details-slice-links' },
    dl,
    h('h3', {}, title),
    count ? h('ul', { class: 'details-messages' }, ...items) : h('p', { class: 'details-hint' }, none),
  );
}
