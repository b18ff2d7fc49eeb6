/**
 * Hands a calendar file (the API's `.ics`) to the device: the browser goes to it as a
 * `text/calendar` document, which a phone opens in its calendar app ("Adicionar à agenda")
 * instead of saving it among the downloads; a desktop browser saves or opens it as it does any
 * calendar file. The token stays in the API call's header, never in an address.
 */
export function openCalendarFile(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar' }));
  window.location.assign(url);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
