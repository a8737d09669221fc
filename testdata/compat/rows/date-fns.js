// date-fns: formatting and arithmetic on fixed dates.
import { format, addDays, differenceInCalendarDays, formatDistanceStrict, parseISO, isWeekend } from "date-fns";
globalThis.render = () => {
  const d = parseISO("2024-02-27T10:30:00");
  return [format(addDays(d, 3), "yyyy-MM-dd EEEE HH:mm"), differenceInCalendarDays(parseISO("2024-12-25"), d), formatDistanceStrict(d, addDays(d, 45)), isWeekend(addDays(d, 4))].join(" | ");
};
