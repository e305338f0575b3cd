export const rows = [];
