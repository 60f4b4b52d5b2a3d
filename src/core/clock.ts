/**
 * The service's clock. The app takes one from its build options (tests pass
 * one they move forward; nothing sleeps for a day) and hands it to every
 * date-driven rule: "today" in a facility, the schedule, write times.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
