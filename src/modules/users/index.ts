export { User, type NewUser, type UserChanges, type InvitationStatus } from './users.model';
export { usersRepository, type StaffFilter } from './users.repository';
