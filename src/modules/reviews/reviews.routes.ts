import Joi from 'joi';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineHotelRoute, defineRoute, type OneAnswer, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import type { PageRequest } from '../../platform/db/keyset';
import {
  linkSchema,
  optedOutSchema,
  optOutBody,
  optOutIdParams,
  optOutQuery,
  optOutSchema,
  replyBody,
  reviewListQuery,
  reviewSchema,
  settingsChanges,
  settingsSchema,
  statusBody,
  submitBody,
  submittedSchema,
  summaryQuery,
  summarySchema,
  tokenParams,
} from './reviews.schemas';
import { linkNotFound } from './reviews.messages';
import type { ReviewsService } from './reviews.service';
import type { ReviewFilter, ReviewInput, ReviewSettingsChanges, SummaryQuery } from './reviews.types';

/** The desk reads reviews and keeps the opt-outs guests ask for; the owner and managers answer and moderate. */
const READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const tags = ['Reviews'];
const base = '/api/hotels/:slug';
type IdParams = { slug: string; id: string };
type TokenParams = { token: string };

const notFound = { description: 'No such review' };
/** A token of a shape no link has is the unknown link's 404. */
const unknownLink: OneAnswer = { refusal: linkNotFound, inputs: ['params'] };

const linkRefusals = {
  404: { description: 'No such link, or its hotel is closed (`review_link_not_found`)' },
  410: { description: 'The link has expired (`review_link_expired`)' },
  429: { description: 'Too many requests from this address (`Retry-After`)' },
};

export function reviewsRoutes(reviews: ReviewsService): RouteDefinition[] {
  return [
    ...settingsRoutes<ReviewSettingsChanges>({
      path: `${base}/review-settings`,
      subject: 'review settings',
      tags,
      readers: READERS,
      writers: HOTEL_MANAGEMENT,
      schema: settingsSchema,
      changes: settingsChanges,
      changeDescription:
        '`invitations_enabled` (off for a new hotel): the guest of a checked-out stay with an e-mail address (not an ' +
        'OTA booking, not opted out) gets a review link `invitation_delay_hours` (0 to 720, default 24) after the ' +
        'check-out; `auto_publish` (off): new reviews are published at once instead of waiting as `pending`.',
      settings: reviews.settings,
    }),
    defineHotelRoute<unknown, ReviewFilter & PageRequest>({
      method: 'get',
      path: `${base}/reviews`,
      summary: 'List reviews',
      description:
        'Newest first. Filters: `status`, the overall rating between `min_rating` and `max_rating`, `has_reply`, and ' +
        `the days of the hotel calendar they came in (\`from\`..\`to\`, at most 731 days).`,
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: reviewListQuery },
      responses: { 200: { description: 'Reviews', schema: Joi.array().items(reviewSchema), headers: PAGE_HEADERS } },
      async handler({ hotel, query, res }) {
        sendPage(res, await reviews.list(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, SummaryQuery>({
      method: 'get',
      path: `${base}/reviews/summary`,
      summary: 'Average ratings, in all and per month',
      description:
        'Of the reviews that came in from `from` to `to` (days of the hotel calendar, at most 731 days), hidden ones ' +
        'left out: their count and the average of the overall rating and of each aspect, then the same per month.',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: summaryQuery },
      responses: { 200: { description: 'Averages', schema: summarySchema } },
      async handler({ hotel, query, res }) {
        res.json(await reviews.summary(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, unknown, IdParams>({
      method: 'get',
      path: `${base}/reviews/:id`,
      summary: 'Read a review',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: idParams },
      responses: { 200: { description: 'Review', schema: reviewSchema }, 404: notFound },
      async handler({ hotel, params, res }) {
        res.json(await reviews.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<{ status: 'published' | 'hidden' }, unknown, IdParams>({
      method: 'patch',
      path: `${base}/reviews/:id`,
      summary: 'Publish or hide a review',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: idParams, body: statusBody },
      responses: { 200: { description: 'Review', schema: reviewSchema }, 404: notFound },
      async handler({ hotel, params, body, res }) {
        res.json(await reviews.setStatus(hotel.id, params.id, body.status));
      },
    }),
    defineHotelRoute<{ text: string }, unknown, IdParams>({
      method: 'put',
      path: `${base}/reviews/:id/reply`,
      summary: "Reply to a review (the hotel's answer)",
      description: 'Up to 2000 characters; replaces an earlier reply.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: idParams, body: replyBody },
      responses: { 200: { description: 'Review', schema: reviewSchema }, 404: notFound },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await reviews.reply(hotel.id, params.id, body.text, auth.sub));
      },
    }),
    defineHotelRoute<unknown, unknown, IdParams>({
      method: 'delete',
      path: `${base}/reviews/:id/reply`,
      summary: 'Take the reply back',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: idParams },
      responses: { 200: { description: 'Review', schema: reviewSchema }, 404: notFound },
      async handler({ hotel, params, res }) {
        res.json(await reviews.removeReply(hotel.id, params.id));
      },
    }),
    defineHotelRoute<unknown, PageRequest & { email?: string }>({
      method: 'get',
      path: `${base}/review-opt-outs`,
      summary: 'List the addresses that get no review invitations',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, query: optOutQuery },
      responses: {
        200: { description: 'Opt-outs, newest first', schema: Joi.array().items(optOutSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await reviews.optOuts.list(hotel.id, query));
      },
    }),
    defineHotelRoute<{ email: string }>({
      method: 'post',
      path: `${base}/review-opt-outs`,
      summary: 'Stop review invitations to an address',
      description: 'For a guest who asked at the desk. 201 when added, 200 when the address was already there.',
      tags,
      access: { kind: 'hotel', roles: READERS },
      request: { params: slugParams, body: optOutBody },
      responses: {
        200: { description: 'Already opted out', schema: optOutSchema },
        201: { description: 'Opted out', schema: optOutSchema },
      },
      async handler({ hotel, auth, body, res }) {
        const { optOut, created } = await reviews.optOuts.add(hotel.id, body.email, auth.sub);
        res.status(created ? 201 : 200).json(optOut);
      },
    }),
    defineHotelRoute<unknown, unknown, IdParams>({
      method: 'delete',
      path: `${base}/review-opt-outs/:id`,
      summary: 'Invite an opted-out address again',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: optOutIdParams },
      responses: { 204: { description: 'Removed' }, 404: { description: 'No such opt-out' } },
      async handler({ hotel, params, res }) {
        await reviews.optOuts.remove(hotel.id, params.id);
        res.status(204).end();
      },
    }),
    defineRoute<unknown, unknown, TokenParams>({
      method: 'get',
      path: '/api/review-links/:token',
      summary: 'What a review link is for (guest)',
      description:
        "For the hotel's review page (`<APP_URL>/review?token=…` in the invitation): the hotel's name, the stay's " +
        'days, the guest’s first name and whether a review was left with it already.',
      tags,
      access: { kind: 'public' },
      rateLimit: { scope: 'reviews.link', store: 'local' },
      oneAnswer: unknownLink,
      request: { params: tokenParams },
      responses: { 200: { description: 'The link', schema: linkSchema }, ...linkRefusals },
      async handler({ params, res }) {
        res.json(await reviews.readLink(params.token));
      },
    }),
    defineRoute<ReviewInput, unknown, TokenParams>({
      method: 'post',
      path: '/api/review-links/:token/review',
      idempotency: { none: 'a link takes one review: a second submission is refused (409)' },
      summary: 'Leave the review of the stay (guest)',
      description:
        '`overall` (1 to 5) and, each optional, `cleanliness`, `staff`, `comfort`, `value` (1 to 5), `comment` (up to ' +
        '2000 characters). Once per link: a second submission, even at the same moment, is refused with 409.',
      tags,
      access: { kind: 'public' },
      rateLimit: { scope: 'reviews.submit' },
      oneAnswer: unknownLink,
      request: { params: tokenParams, body: submitBody },
      responses: {
        201: { description: 'Received', schema: submittedSchema },
        409: { description: 'A review was left with this link already (`review_link_used`)' },
        ...linkRefusals,
      },
      async handler({ params, body, res }) {
        res.status(201).json(await reviews.submit(params.token, body));
      },
    }),
    defineRoute<unknown, unknown, TokenParams>({
      method: 'post',
      path: '/api/review-links/:token/opt-out',
      summary: 'Get no more review invitations from this hotel (guest)',
      description:
        'The page at the e-mail’s opt-out link (`<APP_URL>/review/opt-out?token=…`) calls it (a POST, so that mail ' +
        'scanners opening links opt nobody out). Works with a used or expired link too.',
      tags,
      access: { kind: 'public' },
      rateLimit: { scope: 'reviews.opt-out' },
      oneAnswer: unknownLink,
      request: { params: tokenParams },
      responses: {
        200: { description: 'Opted out', schema: optedOutSchema },
        404: linkRefusals[404],
        429: linkRefusals[429],
      },
      async handler({ params, res }) {
        res.json(await reviews.optOutByLink(params.token));
      },
    }),
  ];
}
