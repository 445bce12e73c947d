export type { UsersService } from './users.service';
export type { User, NewUser, UserChanges, InvitationStatus } from './users.model';
export type { StaffFilter } from './users.repository';
