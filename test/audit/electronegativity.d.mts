/** Types of the audit script's exported helpers, for its test. */
export interface Finding { check: string; file: string; line: number; message: string }
export interface AcceptedFinding { check: string; file: string; reason: string; count?: number }
export function findingsFromSarif(sarif: unknown): Finding[];
export function judgeFindings(findings: readonly Finding[], accepted: readonly AcceptedFinding[]): string[];
