// Build-time service origins (default: same origin), so one build can face any deployment.
export const SERVICE_BASE_URL: string = import.meta.env.VITE_SERVICE_BASE_URL ?? '';
export const IDENTITY_BASE_URL: string = import.meta.env.VITE_IDENTITY_BASE_URL ?? '';
