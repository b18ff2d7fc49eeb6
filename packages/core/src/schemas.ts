/**
 * `@campus/core/schemas`: what a browser may import from core. The input schemas the web app
 * validates its forms with before sending, the limits, the reason codes and their Portuguese
 * copy. No database, driver or Node module is reachable from here (schemas.test.ts bundles this
 * file for the browser and fails if one is).
 */
export { LIMITS } from './common/limits';
export { REASONS, type Reason, type ErrorCode, type FieldIssue } from './errors';
export { emailSchema, loginInput } from './auth/schemas';
export {
  NICKNAME_PATTERN,
  nicknameSchema,
  registerStudentInput,
  type RegisterStudentInput,
} from './students/schemas';
export {
  createCommentInput,
  createCommentReportInput,
  createPostInput,
  createReportInput,
  eventFieldIssues,
  updatePostInput,
  type CreatePostInput,
  type FeedStreamEvent,
} from './feed/schemas';
export {
  createMatchInput,
  updateMatchInput,
  SPORT_NAMES,
  SPORTS_IN_ORDER,
  type CreateMatchInput,
  type Sport,
} from './matches/schemas';
export {
  changePasswordInput,
  deleteAccountInput,
  forgotPasswordInput,
  registerTeacherInput,
  resetPasswordInput,
  updateProfileInput,
} from './accounts/schemas';
export { REASON_MESSAGES } from './common/messages';
export { portugueseIssue } from './common/issue-messages';
