// The theme actually shown: the user's choice, or the OS setting when the choice is "system" (followed
// live). Canvas views and Monaco need it as a value; CSS reads data-theme on <html>.
import { useEffect, useState } from 'react';
import { useStore } from '../../state/store.ts';

const QUERY = '(prefers-color-scheme: dark)';

export type Scheme = 'light' | 'dark';

function osScheme(): Scheme {
  return typeof window !== 'undefined' && window.matchMedia?.(QUERY).matches ? 'dark' : 'light';
}

export function useColorScheme(): Scheme {
  const theme = useStore((s) => s.view.theme);
  const [os, setOs] = useState<Scheme>(osScheme);
  useEffect(() => {
    const mq = window.matchMedia?.(QUERY);
    if (!mq) return;
    const on = () => setOs(mq.matches ? 'dark' : 'light');
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return theme === 'system' ? os : theme;
}
