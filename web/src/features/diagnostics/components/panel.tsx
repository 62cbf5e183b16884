export { Panel } from '@/components/ui/panel';

export { Fact, Facts } from '@/components/fact-list';
