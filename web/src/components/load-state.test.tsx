import { isValidElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '@/lib/request';
import { RefreshError } from './load-state';

/** The words a page shows: the markup without its tags, entities read back. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The onClick of the element in `node` whose own text is `label` (a button's, here). */
function clickHandler(node: ReactNode, label: string): (() => void) | undefined {
  if (Array.isArray(node)) {
    for (const child of node as ReactNode[]) {
      const found = clickHandler(child, label);
      if (found) return found;
    }
    return undefined;
  }
  if (!isValidElement<{ children?: ReactNode; onClick?: () => void }>(node)) return undefined;
  const { children, onClick } = node.props;
  const words = textOf(renderToStaticMarkup(<>{children}</>));
  if (onClick && words === label) return onClick;
  // A function component's own output: its children are only there once it has rendered.
  if (typeof node.type === 'function' && children === undefined) return undefined;
  return clickHandler(children, label);
}

const at = Date.UTC(2025, 4, 6, 10, 42, 5);

function staleQuery(overrides: Partial<Parameters<typeof RefreshError>[0]['query']> = {}) {
  return {
    isRefetchError: true,
    dataUpdatedAt: at,
    error: new ApiRequestError(503, 'Service Unavailable', '{"message":"The hub is restarting"}'),
    refetch: vi.fn(async () => undefined),
    ...overrides,
  };
}

describe('RefreshError: a read that had answered and then failed to refresh', () => {
  it('renders nothing while the query is current (or only its first read failed)', () => {
    expect(
      renderToStaticMarkup(
        <RefreshError what="the containers" query={staleQuery({ isRefetchError: false })} />,
      ),
    ).toBe('');
  });

  it('says what could not be refreshed, as of when, why, and offers to try again', () => {
    const html = renderToStaticMarkup(<RefreshError what="the containers" query={staleQuery()} />);
    const text = textOf(html);
    expect(text).toContain(
      `Couldn't refresh the containers: as it stood at ${new Date(at).toLocaleTimeString()}`,
    );
    expect(html).toMatch(new RegExp(`<time datetime="${new Date(at).toISOString()}">`, 'i'));
    expect(text).toContain('The hub is restarting');
    expect(text).toContain('Try again');
    // A warning beside the data still shown, not an alarm in its place.
    expect(html).toContain('role="status"');
    expect(html).toContain('data-testid="refresh-error"');
  });

  it('falls back to a plain reason when the error has no words', () => {
    const text = textOf(
      renderToStaticMarkup(<RefreshError what="the stacks" query={staleQuery({ error: null })} />),
    );
    expect(text).toContain('The hub did not answer.');
  });

  it('Try again asks the query again', () => {
    const query = staleQuery();
    const tree = RefreshError({ what: 'the containers', query });
    const onClick = clickHandler(tree, 'Try again');
    expect(onClick).toBeTypeOf('function');
    onClick!();
    expect(query.refetch).toHaveBeenCalledTimes(1);
  });
});
