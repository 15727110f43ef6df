// Beside load-status: a share link or file that turns on the `http` summarizer asks before any call is made
// (issue 19, item 8). The calls would send the link's text to this tab's endpoint with this tab's key.
import { allowLinkSummarizer, declineLinkSummarizer, useSummarizer } from '../../state/summarizer-client.ts';

export function SummarizerConsent() {
  const consent = useSummarizer((s) => s.consent);
  if (!consent) return null;
  const where = consent.endpoint ? (
    <>
      to <code data-testid="summarizer-consent-endpoint">{consent.endpoint}</code> with your API key
    </>
  ) : (
    <>to the endpoint you set in the Summarizer tab, with your API key</>
  );
  return (
    <div className="summarizer-consent" role="alertdialog" aria-live="polite" data-testid="summarizer-consent">
      <span>
        ⚠ This {consent.source === 'share link' ? 'share link' : `share file (${consent.source})`} turns on the{' '}
        <code>http</code> summarizer (up to {consent.attemptsPerPass.toLocaleString('en-US')} attempts per pass). It
        would send parts of its transcript {where}. Nothing has been sent.
      </span>
      <button type="button" data-testid="summarizer-consent-allow" onClick={allowLinkSummarizer}>
        Allow calls
      </button>
      <button type="button" data-testid="summarizer-consent-decline" onClick={declineLinkSummarizer}>
        Use the local summarizer
      </button>
    </div>
  );
}
