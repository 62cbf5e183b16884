import { queryOptions } from '@tanstack/react-query';
import { onboardingSchema } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const ONBOARDING_API = '/api/onboarding';

export const onboardingQueryOptions = () =>
  queryOptions({
    queryKey: [ONBOARDING_API],
    queryFn: async () => onboardingSchema.parse(await apiJson('GET', ONBOARDING_API)),
  });
