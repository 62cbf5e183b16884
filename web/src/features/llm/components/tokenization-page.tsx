import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Type } from 'lucide-react';
import { TOKENIZER_ENCODINGS, TOKENIZER_LABELS, MAX_TOKENIZE_CHARS } from '@nexus/agent/contract';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';
import { tokenizeQueryOptions } from '@/data/llm';
import { LoadError, RefreshError, RowsSkeleton, Section } from './section';
import { pageContainer } from '@/components/page-container';

type Encoding = (typeof TOKENIZER_ENCODINGS)[number];

const SAMPLE =
  'Hey Nexus, turn off the living room lights and set the thermostat to 21°C. Tokenizers split text into pieces: “unbelievable” may be one token or three.';
/** Typing pauses this long before the text is sent to the tokenizer. */
const DEBOUNCE_MS = 250;
const TOKEN_COLORS = [
  'bg-primary/15',
  'bg-success/20',
  'bg-warning/20',
  'bg-destructive/15',
  'bg-[oklch(0.66_0.15_200/0.2)]',
  'bg-[oklch(0.64_0.18_320/0.2)]',
];

/** Whitespace made visible, so a leading space or newline inside a token can be seen. */
const visible = (text: string) => text.replace(/ /g, '·').replace(/\n/g, '↵\n').replace(/\t/g, '→');

/** /tokenization-demo: how a text splits into tokens under OpenAI's BPE encodings (gpt-tokenizer, on the hub). */
export function TokenizationPage() {
  const [text, setText] = useState(SAMPLE);
  const [debounced, setDebounced] = useState(SAMPLE);
  const [encoding, setEncoding] = useState<Encoding>('o200k_base');
  const [showIds, setShowIds] = useState(false);

  useEffect(() => {
    const t = setTimeout(() => setDebounced(text), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const result = useQuery(tokenizeQueryOptions(debounced, encoding));

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Tokenization Demo</h1>
        <p className="text-muted-foreground">
          Language models read tokens, not letters. Type below to see how a real tokenizer splits your text.
        </p>
      </header>
      <Section title="Your text" icon={Type}>
        <div className="flex flex-wrap items-end gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="encoding">Encoding</Label>
            <Select value={encoding} onValueChange={(v) => setEncoding(v as Encoding)}>
              <SelectTrigger id="encoding" className="w-80 max-w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {TOKENIZER_ENCODINGS.map((e) => (
                  <SelectItem key={e} value={e}>
                    {TOKENIZER_LABELS[e]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex items-center gap-2 pb-2">
            <Checkbox id="show-ids" checked={showIds} onCheckedChange={(v) => setShowIds(v === true)} />
            <Label htmlFor="show-ids">Show token ids</Label>
          </div>
        </div>
        <Textarea
          aria-label="Text to tokenize"
          value={text}
          maxLength={MAX_TOKENIZE_CHARS}
          onChange={(e) => setText(e.target.value)}
          rows={5}
        />
      </Section>
      <Section title="Tokens" icon={Type} description="Each coloured piece is one token; · is a space.">
        <RefreshError what="the tokens" query={result} />
        {result.isPending ? (
          <RowsSkeleton rows={3} />
        ) : result.isLoadingError ? (
          <LoadError what="the tokens" query={result} />
        ) : (
          <>
            <dl className="grid grid-cols-3 gap-4 text-sm" aria-live="polite">
              <div>
                <dt className="text-muted-foreground">Tokens</dt>
                <dd className="text-2xl font-semibold tabular-nums" data-testid="token-count">
                  {result.data.tokens.length}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Characters</dt>
                <dd className="text-2xl font-semibold tabular-nums">{result.data.characters}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Characters per token</dt>
                <dd className="text-2xl font-semibold tabular-nums">
                  {result.data.tokens.length
                    ? (result.data.characters / result.data.tokens.length).toFixed(2)
                    : '—'}
                </dd>
              </div>
            </dl>
            <p className="font-mono text-sm leading-7 break-words whitespace-pre-wrap" data-testid="tokens">
              {result.data.tokens.map((t, i) => (
                <span
                  key={i}
                  title={`Token ${t.id}`}
                  className={cn('rounded px-0.5', TOKEN_COLORS[i % TOKEN_COLORS.length])}
                >
                  {showIds ? `${t.id} ` : visible(t.text)}
                </span>
              ))}
            </p>
          </>
        )}
      </Section>
    </div>
  );
}
