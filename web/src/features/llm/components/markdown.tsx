import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * An answer rendered as markdown. react-markdown builds React elements and never injects raw
 * HTML, so a model's output cannot run script in the console.
 */
const components: Components = {
  p: (props) => <p className="mb-2 leading-relaxed last:mb-0" {...props} />,
  ul: (props) => <ul className="mb-2 list-disc space-y-1 pl-5" {...props} />,
  ol: (props) => <ol className="mb-2 list-decimal space-y-1 pl-5" {...props} />,
  h1: (props) => <h3 className="mt-3 mb-2 text-base font-semibold" {...props} />,
  h2: (props) => <h4 className="mt-3 mb-2 font-semibold" {...props} />,
  h3: (props) => <h5 className="mt-2 mb-1 font-semibold" {...props} />,
  a: ({ href, children }) => (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="text-primary underline underline-offset-2"
    >
      {children}
    </a>
  ),
  code: ({ className, children }) => (
    <code className={`rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] ${className ?? ''}`}>
      {children}
    </code>
  ),
  pre: (props) => (
    <pre
      className="mb-2 overflow-x-auto rounded-md bg-muted p-3 text-xs [&_code]:bg-transparent [&_code]:p-0"
      {...props}
    />
  ),
  blockquote: (props) => <blockquote className="mb-2 border-l-2 pl-3 text-muted-foreground" {...props} />,
  table: (props) => (
    <div className="mb-2 overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs" {...props} />
    </div>
  ),
  th: (props) => <th className="border-b px-2 py-1 font-semibold" {...props} />,
  td: (props) => <td className="border-b px-2 py-1" {...props} />,
};

export function Markdown({ children }: { children: string }) {
  return (
    <div className="text-sm break-words">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
