import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import type { ToastVariant } from './toast';

/** More than this many at once buries the newest; the oldest ones make room. */
const TOAST_LIMIT = 3;
/** How long a dismissed toast stays in the store so its exit animation can play. */
const REMOVE_DELAY_MS = 1000;

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: ReactElement;
  /** Milliseconds before it closes itself; the provider's default (5 s) when omitted. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

let toasts: readonly ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: readonly ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      setToasts(toasts.filter((t) => t.id !== id));
    }, REMOVE_DELAY_MS),
  );
}

/** Closes one toast, or all of them when no id is given. */
export function dismissToast(id?: string) {
  setToasts(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  for (const t of toasts) if (!t.open) scheduleRemoval(t.id);
}

/** Shows a toast from anywhere (inside or outside React) and returns handles to change or close it. */
export function toast(options: ToastOptions) {
  const id = String(++nextId);
  const open = toasts.filter((t) => t.open);
  const overflow = open.slice(0, Math.max(0, open.length - TOAST_LIMIT + 1)).map((t) => t.id);
  setToasts([...toasts, { ...options, id, open: true }]);
  for (const old of overflow) dismissToast(old);
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next: ToastOptions) => setToasts(toasts.map((t) => (t.id === id ? { ...t, ...next } : t))),
  };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts in the store right now, newest last. */
export const getToasts = (): readonly ToastItem[] => toasts;
const getSnapshot = getToasts;

/** The toasts currently in the store, plus the functions to add and close them. */
export function useToast() {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}
