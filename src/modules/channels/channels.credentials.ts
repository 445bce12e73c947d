/** What a call to a channel manager goes out under: the connection's API key and its property there. */
export interface ChannelCredentials {
  apiKey: string;
  propertyId: string;
}
