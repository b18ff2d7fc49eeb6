/*
 * The app's few icons, inline SVG (24×24 viewBox, Material Symbols' outlines): no icon font to
 * download, drawn in the text's colour. Always decorative: the control's text names it.
 */
const PATHS = {
  feed: 'M4 4h16v4H4zM4 10h16v10H4zm2 2v6h12v-6z',
  matches:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20m1 3.3 1.35-.95a8 8 0 0 1 3.8 2.8l-.4 1.35-1.35.45L13 6.7zm-3.35-.95L11 5.3v1.4L7.6 8.95l-1.35-.45-.4-1.35a8 8 0 0 1 3.8-2.8M7.1 17.1l-1.15.1A8 8 0 0 1 4 12.6l1-.75 1.4.5 1.45 4.3zm7.4 2.5a8 8 0 0 1-5 0l-.7-1.2.65-1.1h4.6l.65 1.1zm-.15-4.6h-4.7L8.3 10.7 12 8l3.7 2.7zm3.7 2.2-1.15-.1-.75-1.25 1.45-4.3 1.4-.5 1 .75a8 8 0 0 1-1.95 5.4',
  groups:
    'M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6m-8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6m0 2c-2.33 0-7 1.17-7 3.5V19h14v-2.5C15 14.17 10.33 13 8 13m8 0c-.29 0-.62.02-.97.05C16.19 13.89 17 15 17 16.5V19h6v-2.5c0-2.33-4.67-3.5-7-3.5',
  bell: 'M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2m6-6v-5c0-3.07-1.64-5.64-4.5-6.32V4a1.5 1.5 0 0 0-3 0v.68C7.63 5.36 6 7.92 6 11v5l-2 2v1h16v-1z',
  account:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20M7.07 18.28C7.5 17.38 10.12 16.5 12 16.5s4.51.88 4.93 1.78A7.9 7.9 0 0 1 12 20c-1.86 0-3.57-.64-4.93-1.72m11.29-1.45c-1.43-1.74-4.9-2.33-6.36-2.33s-4.93.59-6.36 2.33A7.95 7.95 0 0 1 4 12c0-4.41 3.59-8 8-8s8 3.59 8 8c0 1.82-.62 3.49-1.64 4.83M12 6c-1.94 0-3.5 1.56-3.5 3.5S10.06 13 12 13s3.5-1.56 3.5-3.5S13.94 6 12 6',
  plus: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6z',
  filter: 'M10 18h4v-2h-4zM3 6v2h18V6zm3 7h12v-2H6z',
  share:
    'M18 16.08c-.76 0-1.44.3-1.96.77L8.91 12.7c.05-.23.09-.46.09-.7s-.04-.47-.09-.7l7.05-4.11A2.99 2.99 0 0 0 21 5a3 3 0 1 0-5.91.7L8.04 9.81A2.99 2.99 0 0 0 3 12a3 3 0 0 0 5.04 2.19l7.12 4.16c-.05.21-.08.43-.08.65a2.92 2.92 0 1 0 2.92-2.92',
  calendar:
    'M19 4h-1V2h-2v2H8V2H6v2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2m0 16H5V10h14zm0-12H5V6h14z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
